import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One client against a running Mnemos (dev profile, for /dev/token; started with a history retention
 * of at least 1,000 versions): the issue-13 workload of 1,000 steps in one session (a collected key
 * and the step pointer every step, a ~1.1 KB plan every 10th, a constraint every 25th), then reads
 * of the current state (100 plans), of version 10 and forks from it, next to a health probe.
 * Prints p50/p99 per figure and the session's bytes in Redis (redis-cli MEMORY USAGE).
 * Requests go over one keep-alive HTTP/1.1 connection written and read directly on a socket
 * ({@link Http}): the JDK's HttpClient adds about 0.4 ms per request on this machine (its health
 * probe is printed too, for comparison), which would be measured as the server's time.
 * Figures are of a warmed-up server (see WARMUP_ROUNDS in main).
 * Usage: java [-Dwarmup.rounds=3] [-Dbench.reads=300] [-Dbench.token=<JWT>] HttpSessionBench.java [url] [steps];
 * without a token it asks the dev profile's /dev/token for one. Each read figure times {@code bench.reads} requests
 * of its kind: with the default 300, the server's read paths are not compiled by the JIT's last tier yet.
 */
public class HttpSessionBench {

    static final int READS = Integer.getInteger("bench.reads", 300);
    static Http http;
    static String url;
    static String token;

    public static void main(String[] args) throws Exception {
        url = args.length > 0 ? args[0] : "http://localhost:8089";
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        http = new Http(URI.create(url));
        token = System.getProperty("bench.token");
        if (token == null) {
            token = send("GET", "/dev/token?user=bench-" + System.nanoTime(), null, 200);
        }
        for (int i = 0; i < 300; i++) {
            send("GET", "/q/health/live", null, 200);
        }
        // Steady state, not warm-up: on 2 cores the JIT compiler keeps compiling (and competing for
        // the CPU) for tens of seconds, so every measured operation first runs on throwaway sessions
        // for WARMUP_ROUNDS rounds of the whole workload (-Dwarmup.rounds=0 shows the cold figures).
        int rounds = Integer.getInteger("warmup.rounds", 3);
        for (int round = 0; round < rounds; round++) {
            String warm = id(send("POST", "/v1/sessions", "{\"goal\":\"bench\"}", 201));
            for (int i = 0; i < steps; i++) {
                send("POST", "/v1/sessions/" + warm + "/steps", step(i), 200);
            }
            for (int i = 0; i < READS; i++) {
                send("GET", "/v1/sessions/" + warm, null, 200);
                send("GET", "/v1/sessions/" + warm + "/versions/10", null, 200);
                send("GET", "/v1/sessions/" + warm + "/versions/" + (steps - 9), null, 200);
                send("DELETE", "/v1/sessions/"
                        + id(send("POST", "/v1/sessions/" + warm + "/fork", "{\"fromVersion\":10}", 201)), null, 204);
                send("GET", "/q/health/live", null, 200);
            }
            send("DELETE", "/v1/sessions/" + warm, null, 204);
        }

        String id = id(send("POST", "/v1/sessions", "{\"goal\":\"bench\"}", 201));
        long[] writes = new long[steps];
        for (int i = 0; i < steps; i++) {
            String body = step(i);
            long t0 = System.nanoTime();
            send("POST", "/v1/sessions/" + id + "/steps", body, 200);
            writes[i] = System.nanoTime() - t0;
        }
        String session = "/v1/sessions/" + id;
        print("health probe (/q/health/live)", timed(() -> send("GET", "/q/health/live", null, 200)));
        HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest probe = HttpRequest.newBuilder(URI.create(url + "/q/health/live")).build();
        for (int i = 0; i < READS; i++) {
            jdk.send(probe, HttpResponse.BodyHandlers.ofString());
        }
        print("  the same probe with the JDK's HttpClient", timed(() -> jdk.send(probe, HttpResponse.BodyHandlers.ofString())));
        print("step write, 1 client, " + steps + " steps", writes);
        print("  late/early: steps 1-20 vs last 20 p50", null);
        System.out.printf("    %.2fx%n", p(Arrays.copyOfRange(writes, steps - 20, steps), 0.5)
                / p(Arrays.copyOfRange(writes, 0, 20), 0.5));
        print("read current at step " + steps + " (" + steps / 10 + " plans), default view", timed(() -> send("GET", session, null, 200)));
        print("read current, ?plans=all", timed(() -> send("GET", session + "?plans=all", null, 200)));
        print("read version 10 of " + (steps + 1), timed(() -> send("GET", session + "/versions/10", null, 200)));
        print("read version " + (steps - 9) + " of " + (steps + 1), timed(() -> send("GET", session + "/versions/" + (steps - 9), null, 200)));
        long[] forks = new long[READS];
        for (int i = 0; i < READS; i++) {
            long t0 = System.nanoTime();
            String fork = id(send("POST", session + "/fork", "{\"fromVersion\":10}", 201));
            forks[i] = System.nanoTime() - t0;
            send("DELETE", "/v1/sessions/" + fork, null, 204);
        }
        print("fork from version 10", forks);
        long bytes = 0;
        StringBuilder keys = new StringBuilder();
        for (String family : new String[] { "state", "snap", "events", "chat", "trace", "plans" }) {
            String key = "mnemos:{s:" + id + "}:" + family;
            Process p = new ProcessBuilder("redis-cli", "MEMORY", "USAGE", key, "SAMPLES", "0").start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            if (out.matches("\\d+")) {
                bytes += Long.parseLong(out);
                keys.append(' ').append(family).append(' ').append(Long.parseLong(out) / 1000).append(" KB");
            }
        }
        System.out.printf("%-52s: %.3f MB (%s)%n", "bytes per session after the workload", bytes / 1e6, keys.toString().trim());
        send("DELETE", session, null, 204);
    }

    static String step(int i) {
        StringBuilder patch = new StringBuilder("{\"patch\":{\"putCollected\":{\"k" + (i % 50) + "\":\"value " + i
                + "\"},\"stepPointer\":{\"index\":" + i + ",\"name\":\"step\"}");
        if (i % 10 == 0) {
            patch.append(",\"addPlan\":{\"content\":\"").append(("plan line for step " + i + "\\n").repeat(50)).append("\"}");
        }
        if (i % 25 == 0) {
            patch.append(",\"addConstraints\":[{\"text\":\"constraint ").append(i).append("\",\"scope\":\"UNKNOWN\"}]");
        }
        return patch.append("}}").toString();
    }

    interface Call {
        void run() throws Exception;
    }

    static long[] timed(Call call) throws Exception {
        long[] nanos = new long[READS];
        for (int i = 0; i < READS; i++) {
            long t0 = System.nanoTime();
            call.run();
            nanos[i] = System.nanoTime() - t0;
        }
        return nanos;
    }

    static void print(String what, long[] nanos) {
        if (nanos == null) {
            System.out.println(what);
            return;
        }
        System.out.printf("%-52s: p50 %.3f ms  p99 %.3f ms%n", what, p(nanos, 0.5), p(nanos, 0.99));
    }

    static double p(long[] nanos, double q) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1e6;
    }

    static String id(String body) {
        Matcher m = Pattern.compile("\"sessionId\":\"([^\"]+)\"").matcher(body);
        if (!m.find()) {
            throw new IllegalStateException("no session id in " + body);
        }
        return m.group(1);
    }

    static String send(String method, String path, String body, int expected) throws Exception {
        Http.Reply r = http.send(method, path, token, body);
        if (r.status() != expected) {
            throw new IllegalStateException(method + " " + path + " answered " + r.status() + ": " + r.body());
        }
        return r.body();
    }

    /** HTTP/1.1 over one kept-alive socket: Content-Length or chunked replies, reconnects when the server closes. */
    static final class Http {
        record Reply(int status, String body) {
        }

        private final URI base;
        private Socket socket;
        private InputStream in;
        private OutputStream out;

        Http(URI base) {
            this.base = base;
        }

        Reply send(String method, String path, String token, String body) throws IOException {
            if (socket == null || socket.isClosed()) {
                socket = new Socket(base.getHost(), base.getPort());
                socket.setTcpNoDelay(true);
                in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
                out = socket.getOutputStream();
            }
            byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ")
                    .append(base.getHost()).append(':').append(base.getPort()).append("\r\n");
            if (token != null) {
                head.append("Authorization: Bearer ").append(token).append("\r\n");
            }
            if (body != null) {
                head.append("Content-Type: application/json\r\n");
            }
            head.append("Content-Length: ").append(payload.length).append("\r\n\r\n");
            ByteArrayOutputStream request = new ByteArrayOutputStream(head.length() + payload.length);
            request.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            request.write(payload);
            out.write(request.toByteArray());
            out.flush();
            String status = line();
            int code = Integer.parseInt(status.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            boolean close = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                String name = header.substring(0, header.indexOf(':')).trim().toLowerCase();
                String value = header.substring(header.indexOf(':') + 1).trim();
                if (name.equals("content-length")) {
                    length = Long.parseLong(value);
                } else if (name.equals("transfer-encoding") && value.equalsIgnoreCase("chunked")) {
                    chunked = true;
                } else if (name.equals("connection") && value.equalsIgnoreCase("close")) {
                    close = true;
                }
            }
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            if (chunked) {
                for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0; size = Integer
                        .parseInt(line().split(";")[0].trim(), 16)) {
                    reply.write(in.readNBytes(size));
                    line();
                }
                line();
            } else if (length > 0) {
                reply.write(in.readNBytes((int) length));
            }
            if (close) {
                socket.close();
            }
            return new Reply(code, reply.toString(StandardCharsets.UTF_8));
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("connection closed by the server");
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }
    }
}
