package dev.mnemos.session;

import dev.mnemos.injection.Percentiles;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalLong;

/**
 * The session store benchmark (issue 2): step write and state read latency at one client, and how
 * the write cost behaves as sessions grow, next to the raw Redis round trip measured in the same
 * run. Prints figures, asserts none. Run with {@code mvn -Pbench test}; sizes with
 * {@code -Dbench.sessions=10 -Dbench.steps=1000}. Also written to {@code target/bench/session.txt}.
 */
@QuarkusTest
class SessionStoreBenchmark {

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;

    private final StringBuilder report = new StringBuilder();

    @Test
    void run() throws Exception {
        int sessions = Integer.getInteger("bench.sessions", 10);
        int steps = Integer.getInteger("bench.steps", 1000);
        line("Mnemos session store benchmark  (cores: %d, load average at start: %.2f)",
                Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        warmUp();
        Percentiles raw = Percentiles.of(rawGets(20_000));
        long[][] writes = new long[sessions][steps];
        long[] reads = new long[sessions * 50];
        long[] recentReads = new long[sessions * 50];
        for (int s = 0; s < sessions; s++) {
            String id = store.create("bench-" + SessionIds.newId(), SessionPatch.builder().goal("benchmark")
                    .addConstraint(new Constraint(null, "budget 5000 this time", Scope.TASK, "user")).build(), "bench")
                    .sessionId();
            for (int i = 0; i < steps; i++) {
                SessionPatch patch = step(i);
                long t0 = System.nanoTime();
                store.write(id, patch, OptionalLong.of(i + 1), null, "bench");
                writes[s][i] = System.nanoTime() - t0;
            }
            for (int r = 0; r < 50; r++) {
                long t0 = System.nanoTime();
                store.get(id);
                reads[s * 50 + r] = System.nanoTime() - t0;
                t0 = System.nanoTime();
                store.recent(id, 3);
                recentReads[s * 50 + r] = System.nanoTime() - t0;
            }
            store.delete(id);
        }
        Percentiles write = Percentiles.of(Arrays.stream(writes).flatMapToLong(Arrays::stream).toArray());
        Percentiles early = Percentiles.of(column(writes, 0, 20));
        Percentiles late = Percentiles.of(column(writes, steps - 20, steps));
        line("%d sessions x %d steps, 1 client; each step puts a collected entry and moves the step pointer,", sessions, steps);
        line("every 10th step appends a plan version (50 lines), every 25th adds a constraint");
        line("raw Redis GET round trip   : %s", raw);
        line("step write (CAS, Lua)      : %s  -> %.1fx / %.1fx raw (target p50 <= 1 ms)", write,
                write.p50() / raw.p50(), write.p99() / raw.p99());
        line("state read, whole (get)    : %s  (at step %d: %d plan versions)", Percentiles.of(reads), steps, steps / 10);
        line("state read, recent(3 plans): %s  -> %.1fx raw", Percentiles.of(recentReads),
                Percentiles.of(recentReads).p50() / raw.p50());
        line("flat cost: write p50 at steps 1-20 %.3f ms, at steps %d-%d %.3f ms -> %.2fx (target <= 1.2x)",
                early.p50(), steps - 19, steps, late.p50(), late.p50() / early.p50());
        Path out = Path.of("target/bench/session.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println("\n" + report);
    }

    private static SessionPatch step(int i) {
        SessionPatch.Builder patch = SessionPatch.builder().putCollected("k" + (i % 50), "value " + i).stepPointer(i, "step");
        if (i % 10 == 0) {
            patch.addPlan(("plan line for step " + i + "\n").repeat(50), null, null);
        }
        if (i % 25 == 0) {
            patch.addConstraint(new Constraint(null, "constraint " + i, Scope.UNKNOWN, "user"));
        }
        return patch.build();
    }

    private void warmUp() {
        String id = store.create("bench-" + SessionIds.newId(), null, "bench").sessionId();
        for (int i = 0; i < 2_000; i++) {
            store.write(id, step(i), OptionalLong.empty(), null, "bench");
            store.recent(id, 3);
        }
        store.delete(id);
    }

    private long[] rawGets(int n) {
        String key = "mnemos:bench:raw";
        redis.value(String.class).set(key, "x");
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            redis.value(String.class).get(key);
            nanos[i] = System.nanoTime() - t0;
        }
        redis.key().del(key);
        return nanos;
    }

    private static long[] column(long[][] samples, int from, int to) {
        return Arrays.stream(samples).flatMapToLong(row -> Arrays.stream(row, from, to)).toArray();
    }

    private void line(String format, Object... args) {
        report.append(String.format(format, args)).append('\n');
    }
}
