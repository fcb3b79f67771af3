import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Step writes over HTTP against a running Mnemos (dev profile, for /dev/token): N concurrent
 * sessions, one client thread each, each POSTing atomic patches for a fixed time. Prints
 * throughput and latency percentiles. Usage: java HttpStepBench.java [url] [sessions] [seconds]
 */
public class HttpStepBench {

    public static void main(String[] args) throws Exception {
        String url = args.length > 0 ? args[0] : "http://localhost:8080";
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newFixedThreadPool(8)).build();
        String token = http.send(HttpRequest.newBuilder(URI.create(url + "/dev/token?user=bench-" + System.nanoTime()))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            String body = post(http, url + "/v1/sessions", token, "{\"goal\":\"bench\"}");
            Matcher m = Pattern.compile("\"sessionId\":\"([^\"]+)\"").matcher(body);
            if (!m.find()) throw new IllegalStateException("cannot create a session: " + body);
            ids.add(m.group(1));
        }
        run(http, url, token, ids, 5, false);
        run(http, url, token, ids, seconds, true);
        System.exit(0);
    }

    static void run(HttpClient http, String url, String token, List<String> ids, int seconds, boolean report)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(ids.size());
        AtomicBoolean stop = new AtomicBoolean();
        List<Future<long[]>> results = new ArrayList<>();
        for (String id : ids) {
            results.add(pool.submit(() -> {
                long[] lat = new long[1 << 20];
                int n = 0;
                long errors = 0;
                while (!stop.get() && n < lat.length) {
                    long t0 = System.nanoTime();
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/v1/sessions/" + id + "/steps"))
                            .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"patch\":{\"putCollected\":{\"k" + (n % 50)
                                    + "\":\"v" + n + "\"},\"stepPointer\":{\"index\":" + n + ",\"name\":\"bench\"}}}"))
                            .build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200) errors++;
                    lat[n++] = System.nanoTime() - t0;
                }
                long[] out = Arrays.copyOf(lat, n + 1);
                out[n] = errors;
                return out;
            }));
        }
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        List<Long> all = new ArrayList<>();
        long errors = 0;
        for (Future<long[]> f : results) {
            long[] r = f.get();
            for (int i = 0; i < r.length - 1; i++) all.add(r[i]);
            errors += r[r.length - 1];
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        pool.shutdownNow();
        if (!report) return;
        all.sort(null);
        System.out.printf("HTTP step writes: %d sessions, %.1f s: %d writes (%d non-200), %.0f writes/s, "
                        + "latency p50 %.2f ms, p99 %.2f ms (target >= 5000 writes/s)%n",
                ids.size(), elapsed, all.size(), errors, all.size() / elapsed,
                all.get(all.size() / 2) / 1e6, all.get((int) (all.size() * 0.99)) / 1e6);
    }

    static String post(HttpClient http, String url, String token, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
