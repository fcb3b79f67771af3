package dev.mnemos.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.injection.Percentiles;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bytes per session after the issue-13 workload (1,000 steps: a collected key and the step pointer
 * every step, a ~1.1 KB plan every 10th, a constraint every 25th) at the default retention, next to
 * {@link SessionStoreBenchmark} which runs with a retention of 1,000 versions, and against the bytes
 * written (the patches as JSON, as a client sends them). Prints, asserts nothing.
 * Also written to {@code target/bench/session-bytes.txt}.
 */
@QuarkusTest
class SessionBytesBenchmark {

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;
    @Inject
    SessionConfig config;
    @Inject
    ObjectMapper json;

    @Test
    void run() throws Exception {
        int steps = Integer.getInteger("bench.steps", 1000);
        String id = store
                .create(NewSession.of("bench-" + SessionIds.newId(), SessionPatch.builder().goal("benchmark").build())
                        .by("bench"))
                .sessionId();
        long[] writes = new long[steps];
        long written = 0;
        for (int i = 0; i < steps; i++) {
            SessionPatch patch = SessionStoreBenchmark.step(i);
            written += json.writeValueAsBytes(patch).length;
            long t0 = System.nanoTime();
            store.apply(StepWrite.of(id, patch).expecting(i + 1).by("bench"));
            writes[i] = System.nanoTime() - t0;
        }
        long total = 0;
        StringBuilder keys = new StringBuilder();
        for (String key : SessionKeys.all(id)) {
            var reply = redis.execute("MEMORY", "USAGE", key, "SAMPLES", "0");
            long bytes = reply == null ? 0 : reply.toLong();
            total += bytes;
            if (bytes > 0) {
                keys.append(keys.isEmpty() ? "" : ", ").append(key.substring(key.lastIndexOf(':') + 1)).append(' ')
                        .append(bytes / 1000).append(" KB");
            }
        }
        String report = String.format(
                "Mnemos session bytes (load average %.2f; retention %d)%n"
                        + "bytes per session after %d steps: %.3f MB (%s)  (target <= 0.6 MB)%n"
                        + "bytes written (patches as JSON): %.3f MB; Redis bytes / bytes written: %.2fx  (target <= 3x)%n"
                        + "step writes of that session: %s%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                config.historyRetention(), steps, total / 1e6, keys, written / 1e6, (double) total / written,
                Percentiles.of(writes));
        store.delete(id);
        Path out = Path.of("target/bench/session-bytes.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println("\n" + report);
    }
}
