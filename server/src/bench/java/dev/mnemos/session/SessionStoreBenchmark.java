package dev.mnemos.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.injection.Percentiles;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The session store benchmark (issues 2 and 13): every per-step figure of the session store, in
 * process and over HTTP (the test server, one keep-alive client), next to the raw Redis and
 * Postgres round trips of the same run as the floor. The workload of a session: 1,000 steps, each
 * puts a collected key and moves the step pointer, every 10th appends a ~1.1 KB plan, every 25th
 * adds a constraint. Retention is 1,000 versions so that version 10 of 1,000 can be read, as in the
 * issue's comparison. Prints figures, asserts none. Run with {@code mvn -Pbench test}; sizes with
 * {@code -Dbench.sessions=5 -Dbench.steps=1000}. Also written to {@code target/bench/session.txt}.
 */
@QuarkusTest
@TestProfile(SessionStoreBenchmark.LongRetention.class)
class SessionStoreBenchmark {

    public static class LongRetention implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.mnemos.session.history-retention", "1000");
        }
    }

    private static final int READS = 200;

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;
    @Inject
    AgroalDataSource postgres;
    @Inject
    ObjectMapper json;
    @Inject
    SessionConfig config;
    @TestHTTPResource("/")
    URL base;

    private final StringBuilder report = new StringBuilder();

    @Test
    void run() throws Exception {
        int sessions = Integer.getInteger("bench.sessions", 5);
        int steps = Integer.getInteger("bench.steps", 1000);
        line("Mnemos session store benchmark  (cores: %d, load average at start: %.2f; retention %d)",
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                config.historyRetention());
        warmUp();
        Percentiles rawRedis = Percentiles.of(rawRedisGets(20_000));
        Percentiles rawPostgres = Percentiles.of(rawPostgresSelects(5_000));
        line("floor: raw Redis GET       : %s", rawRedis);
        line("floor: raw Postgres SELECT1: %s", rawPostgres);
        line("");

        long[][] writes = new long[sessions][steps];
        String last = null;
        for (int s = 0; s < sessions; s++) {
            String id = newSession();
            for (int i = 0; i < steps; i++) {
                SessionPatch patch = step(i);
                long t0 = System.nanoTime();
                store.apply(StepWrite.of(id, patch).expecting(i + 1).by("bench"));
                writes[s][i] = System.nanoTime() - t0;
            }
            if (last != null) {
                store.delete(last);
            }
            last = id;
        }
        Percentiles write = Percentiles.of(Arrays.stream(writes).flatMapToLong(Arrays::stream).toArray());
        Percentiles early = Percentiles.of(column(writes, 0, 20));
        Percentiles late = Percentiles.of(column(writes, steps - 20, steps));
        line("== in process, 1 client: %d sessions x %d steps", sessions, steps);
        line("step write (CAS, Lua)          : %s  -> %.1fx raw Redis p50", write, write.p50() / rawRedis.p50());
        line("  flat: p50 at steps 1-20 %.3f ms, at steps %d-%d %.3f ms -> late/early %.2fx", early.p50(), steps - 19, steps,
                late.p50(), late.p50() / early.p50());
        String id = last;
        SessionState full = store.get(id);
        line("read current at step %d (%d plans), whole      : %s", steps, full.plans().size(), timed(() -> store.get(id)));
        line("read current, default view (newest %d plans)  : %s", 10, timed(() -> store.recent(id, 10)));
        line("read version 10 of %d                       : %s", full.version(), timed(() -> store.at(id, 10, 10)));
        line("read version %d of %d (%d plans then)      : %s", full.version() - 10, full.version(),
                store.at(id, full.version() - 10).plans().size(), timed(() -> store.at(id, full.version() - 10, 10)));
        line("fork from version 10                           : %s", timed(() -> {
            String fork = store.fork(Fork.of(id, 10).by("bench")).sessionId();
            store.delete(fork);
        }));
        line("  (fork includes deleting the fork again: one more round trip)");
        SessionState first = store.at(id, 25);
        SessionState last1000 = store.at(id, steps);
        line("history of a version (its undo record) at v%d (%d plans, %d constraints): %d B; at v%d (%d plans, %d constraints): %d B",
                25, first.plans().size(), first.constraints().size(), undoBytes(id, 25), steps,
                last1000.plans().size(), last1000.constraints().size(), undoBytes(id, steps));
        line("  (a version stores what it changed: neither the plans nor the state's size count)");
        line("bytes per session after the workload: %.3f MB (%s)", sessionBytes(id) / 1e6, keyBytes(id));
        line("");
        http(steps);
        store.delete(id);
        Path out = Path.of("target/bench/session.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println("\n" + report);
    }

    /**
     * Old versions against recent ones (issue 48): {@code bench.historySessions} sessions of the workload
     * (1,001 versions each), then p50/p99 of reading version 10, 500 and 991 (newest 10 plans, the HTTP
     * default), forking from version 10 (the fork alone, deleted untimed) and rolling back to version 10 (a
     * session takes 8 rollbacks before version 10 leaves its window of 1,000), and Redis bytes per session
     * against the bytes written. Run alone with {@code -Dtest=SessionStoreBenchmark#history}; written to
     * {@code target/bench/session-history.txt}.
     */
    @Test
    void history() throws Exception {
        int sessions = Integer.getInteger("bench.historySessions", 25);
        line("Mnemos session history benchmark  (load average at start: %.2f; retention %d, checkpoint-every %d)",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), config.historyRetention(),
                config.checkpointEvery());
        warmUp();
        List<String> ids = new ArrayList<>();
        long written = 0;
        for (int s = 0; s < sessions; s++) {
            String id = newSession();
            for (int i = 0; i < 1000; i++) {
                SessionPatch patch = step(i);
                written += s == 0 ? json.writeValueAsBytes(patch).length : 0;
                store.apply(StepWrite.of(id, patch).expecting(i + 1).by("bench"));
            }
            ids.add(id);
        }
        String first = ids.get(0);
        int[] turn = { 0 };
        Supplier<String> next = () -> ids.get(turn[0]++ % ids.size());
        line("read version 10 of 1001   : %s", timed(() -> store.at(next.get(), 10, 10)));
        line("read version 500 of 1001  : %s", timed(() -> store.at(next.get(), 500, 10)));
        line("read version 991 of 1001  : %s", timed(() -> store.at(next.get(), 991, 10)));
        List<String> forks = new ArrayList<>();
        line("fork from version 10      : %s", timed(() -> forks.add(store.fork(Fork.of(next.get(), 10).by("bench")).sessionId())));
        forks.forEach(store::delete);
        long bytes = sessionBytes(first);
        line("bytes per session: %.3f MB in Redis (MEMORY USAGE: %s), %.3f MB written (patches as JSON): %.2fx", bytes / 1e6,
                keyBytes(first), written / 1e6, (double) bytes / written);
        long[] rollbacks = new long[sessions * 8];
        for (int r = 0; r < rollbacks.length; r++) {
            String id = ids.get(r % sessions);
            long t0 = System.nanoTime();
            store.rollback(Rollback.of(id, 10).by("bench"));
            rollbacks[r] = System.nanoTime() - t0;
        }
        line("rollback to version 10    : %s", Percentiles.of(rollbacks));
        ids.forEach(store::delete);
        Path out = Path.of("target/bench/session-history.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println("\n" + report);
    }

    /**
     * The HTTP figures of the same workload, by the repository's one-client HTTP benchmark
     * ({@code .ci/bench/HttpSessionBench.java}, a raw keep-alive socket: the JDK's HttpClient adds
     * about 0.4 ms per request) against this test server, with a token of this test's issuer.
     */
    private void http(int steps) throws Exception {
        Path client = Path.of("../.ci/bench/HttpSessionBench.java").toAbsolutePath().normalize();
        String launcher = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process run = new ProcessBuilder(launcher, "-Dbench.token=" + Tokens.user("bench-" + SessionIds.newId()),
                "-Dwarmup.rounds=" + Integer.getInteger("bench.httpWarmupRounds", 2), client.toString(),
                base.toString().replaceAll("/$", ""), Integer.toString(steps)).redirectErrorStream(true).start();
        String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = run.waitFor();
        line("== over HTTP (this test server, 1 keep-alive client, JWT per request; .ci/bench/HttpSessionBench.java)");
        output.lines().forEach(l -> line("%s", l));
        if (exit != 0) {
            line("(the HTTP benchmark exited with %d)", exit);
        }
    }

    private String newSession() {
        return newSession("bench-" + SessionIds.newId());
    }

    private String newSession(String user) {
        return store.create(NewSession.of(user, SessionPatch.builder().goal("benchmark")
                .addConstraint(new Constraint(null, "budget 5000 this time", Scope.TASK, "user")).build()).by("bench"))
                .sessionId();
    }

    static SessionPatch step(int i) {
        SessionPatch.Builder patch = SessionPatch.builder().putCollected("k" + (i % 50), "value " + i).stepPointer(i, "step");
        if (i % 10 == 0) {
            patch.addPlan(("plan line for step " + i + "\n").repeat(50), null, null);
        }
        if (i % 25 == 0) {
            patch.addConstraint(new Constraint(null, "constraint " + i, Scope.UNKNOWN, "user"));
        }
        return patch.build();
    }

    private void warmUp() throws Exception {
        String id = newSession();
        for (int i = 0; i < 2_000; i++) {
            store.apply(StepWrite.of(id, step(i)).by("bench"));
            store.recent(id, 10);
            if (i % 10 == 0) {
                store.at(id, Math.max(1, i - 30), 10);
            }
        }
        store.delete(id);
    }

    private Percentiles timed(Runnable call) {
        long[] nanos = new long[READS];
        for (int i = 0; i < READS; i++) {
            long t0 = System.nanoTime();
            call.run();
            nanos[i] = System.nanoTime() - t0;
        }
        return Percentiles.of(nanos);
    }

    /** The version's undo record, packed alone, out of its block of 16 (session-common.lua). */
    private long undoBytes(String id, long version) {
        String script = "local b = cmsgpack.unpack(redis.call('HGET', KEYS[1], ARGV[1]) or '\\144') local i = 1 "
                + "while i <= #b do local n = b[i + 1] if b[i] == tonumber(ARGV[2]) then "
                + "return #cmsgpack.pack({unpack(b, i + 2, i + 1 + 2 * n)}) end i = i + 2 + 2 * n end return -1";
        return redis.execute("EVAL", script, "1", SessionKeys.snapshots(id), "U" + version / 16, Long.toString(version))
                .toLong();
    }

    private long sessionBytes(String id) {
        return SessionKeys.all(id).stream().mapToLong(this::memoryUsage).sum();
    }

    private String keyBytes(String id) {
        StringBuilder keys = new StringBuilder();
        for (String key : SessionKeys.all(id)) {
            long bytes = memoryUsage(key);
            if (bytes > 0) {
                keys.append(keys.isEmpty() ? "" : ", ").append(key.substring(key.lastIndexOf(':') + 1)).append(' ')
                        .append(bytes / 1000).append(" KB");
            }
        }
        return keys.toString();
    }

    private long memoryUsage(String key) {
        var reply = redis.execute("MEMORY", "USAGE", key, "SAMPLES", "0");
        return reply == null ? 0 : reply.toLong();
    }

    private long[] rawRedisGets(int n) {
        String key = "mnemos:bench:raw:" + SessionIds.newId();
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

    private long[] rawPostgresSelects(int n) throws Exception {
        long[] nanos = new long[n];
        try (Connection c = postgres.getConnection(); PreparedStatement select = c.prepareStatement("SELECT 1")) {
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                try (ResultSet r = select.executeQuery()) {
                    r.next();
                }
                nanos[i] = System.nanoTime() - t0;
            }
        }
        return nanos;
    }

    private static long[] column(long[][] samples, int from, int to) {
        return Arrays.stream(samples).flatMapToLong(row -> Arrays.stream(row, from, to)).toArray();
    }

    private void line(String format, Object... args) {
        report.append(String.format(format, args)).append('\n');
    }
}
