import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Session ends ({@code POST /v1/sessions/{id}/end}) against a running Mnemos (dev profile, for
 * /dev/token). Each session is a short task written in four steps before it ends: a goal; context
 * and two constraints (one for the task, one standing); four observations (a standing preference
 * that is promoted, one from a small set that repeats across a user's sessions, a task-only one
 * that is rejected, an inferred one left pending); a ~1.1 KB plan and the step pointer. A user has
 * {@code SESSIONS_PER_USER} sessions, so later ends meet a profile that already holds facts.
 * Prints the one-client p50/p99 of an end (sessions written first, then ended one after the other)
 * and the ends a second with {@code clients} concurrent clients, each its own users and connection.
 * Only the ends are timed; the machine's load average is printed before and after them. Requests go over
 * kept-alive sockets as in HttpSessionBench.java.
 * Usage: java HttpEndBench.java [url] [sessions] [clients] [sessions per client]
 * (-Dwarmup.sessions=300 ends that many first, not measured).
 */
public class HttpEndBench {

    static final int SESSIONS_PER_USER = 10;
    static final String[] STANDING = { "Always cite your sources", "From now on, answer with bullet points",
            "I prefer metric units", "Always reply in English", "Keep answers under 200 words" };

    public static void main(String[] args) throws Exception {
        String url = args.length > 0 ? args[0] : "http://localhost:8089";
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int perClient = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        URI base = URI.create(url);
        String run = Long.toString(System.nanoTime(), 36);
        Client warm = new Client(base, "bench-end-" + run + "-warm");
        int warmup = Integer.getInteger("warmup.sessions", 300);
        warm.endAll(warm.prepare(warmup));
        Client one = new Client(base, "bench-end-" + run + "-one");
        List<String> ids = one.prepare(sessions);
        load("before the ends");
        long[] ends = one.endAll(ids);
        print("end, 1 client, " + sessions + " sessions", ends);
        throughput(base, run, clients, perClient);
        System.exit(0);
    }

    /** Every client writes its sessions first; then all end theirs at once; ends a second over the wall time. */
    static void throughput(URI base, String run, int clients, int perClient) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Client> all = new ArrayList<>();
        List<List<String>> ids = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Client client = new Client(base, "bench-end-" + run + "-c" + c);
            all.add(client);
            ids.add(client.prepare(perClient));
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Client client = all.get(c);
            List<String> mine = ids.get(c);
            done.add(pool.submit(() -> {
                start.await();
                return client.endAll(mine);
            }));
        }
        load("before the concurrent ends");
        long t0 = System.nanoTime();
        start.countDown();
        long[] latencies = new long[0];
        for (Future<long[]> f : done) {
            long[] mine = f.get();
            int from = latencies.length;
            latencies = Arrays.copyOf(latencies, from + mine.length);
            System.arraycopy(mine, 0, latencies, from, mine.length);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        System.out.printf("%-52s: %.0f ends/s (%d ends in %.2f s)%n", "ends, " + clients + " concurrent clients",
                latencies.length / seconds, latencies.length, seconds);
        print("  their latency", latencies);
        load("after them");
    }

    /** The machine's one-minute load average: the figures of a shared machine mean little without it. */
    static void load(String when) {
        System.out.printf("%-52s: %.2f%n", "load average, " + when, ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage());
    }

    /** One connection and the users it writes for, a token each. */
    static final class Client {
        private final Http http;
        private final String prefix;
        private final List<String> tokens = new ArrayList<>();
        private final List<String> owners = new ArrayList<>();

        Client(URI base, String prefix) {
            this.http = new Http(base);
            this.prefix = prefix;
        }

        List<String> prepare(int count) throws IOException {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (i % SESSIONS_PER_USER == 0) {
                    tokens.add(send("GET", "/dev/token?user=" + prefix + "-u" + i / SESSIONS_PER_USER, null, null, 200));
                }
                String token = tokens.get(tokens.size() - 1);
                String id = id(send("POST", "/v1/sessions", token, "{\"goal\":\"plan a trip to Kyoto " + i + "\"}", 201));
                for (String step : steps(i)) {
                    send("POST", "/v1/sessions/" + id + "/steps", token, step, 200);
                }
                ids.add(id);
                owners.add(token);
            }
            return ids;
        }

        long[] endAll(List<String> ids) throws IOException {
            long[] nanos = new long[ids.size()];
            int first = owners.size() - ids.size();
            for (int i = 0; i < ids.size(); i++) {
                String path = "/v1/sessions/" + ids.get(i) + "/end";
                String token = owners.get(first + i);
                long t0 = System.nanoTime();
                send("POST", path, token, null, 200);
                nanos[i] = System.nanoTime() - t0;
            }
            return nanos;
        }

        private String send(String method, String path, String token, String body, int expected) throws IOException {
            Http.Reply r = http.send(method, path, token, body);
            if (r.status() != expected) {
                throw new IllegalStateException(method + " " + path + " answered " + r.status() + ": " + r.body());
            }
            return r.body();
        }
    }

    static List<String> steps(int i) {
        String standing = STANDING[i % STANDING.length];
        return List.of(
                "{\"patch\":{\"context\":\"a week in spring, two travellers\",\"addConstraints\":["
                        + "{\"text\":\"budget under $2000 for this trip\",\"scope\":\"TASK\"},"
                        + "{\"text\":\"never book red-eye flights\",\"scope\":\"STABLE\"}]}}",
                "{\"patch\":{\"addObservations\":["
                        + "{\"text\":\"From now on, use 24-hour times in plan " + i + "\",\"kind\":\"PREFERENCE\",\"explicit\":true},"
                        + "{\"text\":\"" + standing + "\",\"kind\":\"PREFERENCE\",\"explicit\":true},"
                        + "{\"text\":\"My budget is $500 for this trip\",\"kind\":\"PREFERENCE\",\"explicit\":true},"
                        + "{\"text\":\"Likes window seats\",\"kind\":\"PREFERENCE\",\"explicit\":false}]}}",
                "{\"patch\":{\"addPlan\":{\"content\":\"" + "day by day: temples, gardens, markets\\n".repeat(28)
                        + "\"},\"stepPointer\":{\"index\":1,\"name\":\"book\"}}}",
                "{\"patch\":{\"putCollected\":{\"hotel\":\"Gion, 5 nights\"},\"stepPointer\":{\"index\":2,\"name\":\"done\"}}}");
    }

    static void print(String what, long[] nanos) {
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

    /** HTTP/1.1 over one kept-alive socket (as HttpSessionBench.Http). */
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
            int code = Integer.parseInt(line().substring(9, 12));
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
                for (int size = chunk(); size > 0; size = chunk()) {
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

        private int chunk() throws IOException {
            return Integer.parseInt(line().split(";")[0].trim(), 16);
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
