package dev.mnemos.injection;

import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionKeys;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@QuarkusTest
class RedisStepTraceStoreTest {

    @Inject
    StepTraceStore traces;
    @Inject
    InjectionConfig config;
    @Inject
    RedisDataSource redis;

    private static StepTrace trace(String id, long version) {
        return new StepTrace(id, "u-1", version, "chat", "TripAi.chat", Instant.parse("2026-01-01T00:00:00Z"),
                new StepTrace.Read(version - 1, ProfileSnapshot.Status.LOADED, ProfileSnapshot.Cache.HIT, 2),
                new StepTrace.Injected("abc", 10, 3, 1000, false, List.of(1), List.of("f1"),
                        List.of(new TurnOverride("output.language", "French", "English")), "<memory-data>中文 😀</memory-data>"),
                new StepTrace.Written(version - 1, version, 0, List.of("stepPointer")),
                new StepTrace.Timings(1, 2, 3, 4));
    }

    /** A session id with a state hash: traces are kept only for a session that still exists. */
    private String session() {
        String id = SessionIds.newId();
        redis.hash(String.class).hset(SessionKeys.state(id), "version", "1");
        return id;
    }

    private void drop(String id) {
        redis.key().del(SessionKeys.trace(id), SessionKeys.state(id));
    }

    @Test
    void traceRoundTripsAndCarriesTheSessionTtl() {
        String id = session();
        traces.save(trace(id, 2));
        assertThat(traces.find(id, 2)).contains(trace(id, 2));
        assertThat(redis.key().pttl(SessionKeys.trace(id))).isPositive();
        assertThat(traces.find(id, 3)).isEmpty();
        drop(id);
    }

    @Test
    void aTraceOfASessionThatIsGoneIsNotKept() {
        String gone = SessionIds.newId();
        traces.save(trace(gone, 2));
        assertThat(traces.find(gone, 2)).isEmpty();
        assertThat(redis.key().exists(SessionKeys.trace(gone))).as("no trace key outlives its session").isFalse();
    }

    @Test
    void tracesBeyondTheRetentionWindowAreDroppedEvenWhenOnlySomeVersionsHaveOne() {
        String id = session();
        int retention = config.traceRetention();
        long last = 0;
        // only every third version has a trace, as when HTTP steps and rollbacks write in between
        for (long v = 3; v <= 3L * (retention + 100); v += 3) {
            traces.save(trace(id, v));
            last = v;
        }
        long oldestKept = last - retention + 1;
        long inWindow = java.util.stream.LongStream.rangeClosed(oldestKept, last).filter(v -> v % 3 == 0).count();
        for (long v = oldestKept + (3 - oldestKept % 3) % 3; v <= last; v += 3) {
            assertThat(traces.find(id, v)).as("version %d is inside the window", v).isPresent();
        }
        assertThat(traces.find(id, 3)).isEmpty();
        assertThat(inWindow).isPositive();
        assertThat(redis.hash(String.class).hlen(SessionKeys.trace(id))).as("bounded by the retention plus the sweep slack")
                .isLessThanOrEqualTo(retention + 65L);
        drop(id);
    }
}
