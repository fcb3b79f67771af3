package dev.mnemos.injection.trace;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.TurnOverride;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StaleVersionException;
import dev.mnemos.session.StepWrite;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Step traces as the step's own write stores them (session-patch.lua), read back through the trace store. */
class RedisStepTraceStoreTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties")
            .withApplicationRoot(
                    jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class));

    @Inject
    StepTraceStore traces;
    @Inject
    InjectionConfig config;
    @Inject
    RedisDataSource redis;
    @Inject
    SessionStore store;
    @Inject
    ObjectMapper json;

    private static StepTrace trace(String id, long version) {
        return new StepTrace(id, "u-1", version, "chat", "TripAi.chat", Instant.parse("2026-01-01T00:00:00Z"),
                new StepTrace.Read(version - 1, ProfileSnapshot.Status.LOADED, ProfileSnapshot.Cache.HIT, 2),
                new StepTrace.Injected("abc", 10, 3, 1000, false, List.of(1), List.of("f1"),
                        List.of(new TurnOverride("output.language", "French", "English")), "<memory-data>中文 😀</memory-data>"),
                new StepTrace.Written(version - 1, version, 0, List.of("stepPointer")),
                new StepTrace.Timings(1, 2, 3, 4));
    }

    private String session() {
        return store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("traced").build()).by("test"))
                .sessionId();
    }

    private static SessionPatch step(long version) {
        return SessionPatch.builder().putCollected("answer", "at " + version).build();
    }

    /** The step write that produces {@code version}, carrying its trace. */
    private void writeWithTrace(String id, long version) {
        store.apply(StepWrite.of(id, step(version)).expecting(version - 1).noting("step").by("test")
                .traced(traces.entry(trace(id, version))));
    }

    @Test
    void traceIsStoredByItsStepsWriteAndCarriesTheSessionTtl() {
        String id = session();
        writeWithTrace(id, 2);
        assertThat(store.get(id).version()).isEqualTo(2);
        assertThat(traces.find(id, 2)).contains(trace(id, 2));
        assertThat(redis.key().pttl(SessionKeys.trace(id))).isPositive();
        assertThat(traces.find(id, 3)).isEmpty();
        store.delete(id);
        assertThat(traces.find(id, 2)).as("deleted with its session").isEmpty();
    }

    @Test
    void theBlockIsStoredAsItIsAfterTheTracesJsonAndEarlierJsonTracesStillRead() throws Exception {
        String id = session();
        writeWithTrace(id, 2);
        String stored = redis.hash(String.class).hget(SessionKeys.trace(id), "2");
        String block = trace(id, 2).injected().block();
        // one line of JSON without the block, then the block itself, not escaped
        assertThat(stored).endsWith("\n" + block);
        String head = stored.substring(0, stored.indexOf('\n'));
        assertThat(head).doesNotContain("memory-data").doesNotContain("\"block\"").contains("\"sha256\":\"abc\"");
        assertThat(traces.find(id, 2)).contains(trace(id, 2));

        // a trace an earlier version stored: JSON with the block inside
        writeWithTrace(id, 3);
        String earlier = json.writeValueAsString(trace(id, 3));
        redis.hash(String.class).hset(SessionKeys.trace(id), "3", earlier);
        assertThat(traces.find(id, 3)).contains(trace(id, 3));
        assertThat(traces.all(id)).containsExactly(trace(id, 2), trace(id, 3));
        assertThat(redis.hash(String.class).hget(SessionKeys.trace(id), "3")).isEqualTo(earlier);
        // a block with line breaks of its own comes back whole
        StepTrace multiline = trace(id, 4).withBlock("<memory-data>\nline one\n\nline \"two\"\n</memory-data>");
        store.apply(StepWrite.of(id, step(4)).expecting(3).noting("step").by("test").traced(traces.entry(multiline)));
        assertThat(traces.find(id, 4)).contains(multiline);
        assertThat(redis.hash(String.class).hget(SessionKeys.trace(id), "4")).endsWith(multiline.injected().block());
    }

    @Test
    void aRefusedWriteStoresNoTrace() {
        String id = session();
        assertThatThrownBy(() -> store
                .apply(StepWrite.of(id, step(3)).expecting(2).noting("step").by("test").traced(traces.entry(trace(id, 3)))))
                .isInstanceOf(StaleVersionException.class);
        assertThat(traces.all(id)).isEmpty();
        assertThatThrownBy(() -> store.apply(StepWrite.of(id, step(2)).ownedBy("u-someone-else").expecting(1).noting("step")
                .by("test").traced(traces.entry(trace(id, 2))))).isInstanceOf(SessionNotFoundException.class);
        assertThat(traces.all(id)).isEmpty();
        assertThat(store.get(id).version()).as("nothing written").isEqualTo(1);

        String gone = SessionIds.newId();
        assertThatThrownBy(() -> writeWithTrace(gone, 2)).isInstanceOf(SessionNotFoundException.class);
        assertThat(redis.key().exists(SessionKeys.trace(gone))).as("no trace key without its session").isFalse();
        store.delete(id);
    }

    @Test
    void tracesBeyondTheRetentionWindowAreDroppedEvenWhenOnlySomeVersionsHaveOne() {
        String id = session();
        int retention = config.traceRetention();
        long last = 0;
        // only every third version has a trace, as when HTTP steps and rollbacks write in between
        for (long v = 3; v <= 3L * (retention + 100); v += 3) {
            store.apply(StepWrite.of(id, step(v - 1)).expecting(OptionalLong.empty()).noting("http step").by("test"));
            writeWithTrace(id, v);
            store.apply(StepWrite.of(id, step(v + 1)).expecting(OptionalLong.empty()).noting("http step").by("test"));
            last = v;
        }
        long oldestKept = last - retention + 1;
        long inWindow = LongStream.rangeClosed(oldestKept, last).filter(v -> v % 3 == 0).count();
        for (long v = oldestKept + (3 - oldestKept % 3) % 3; v <= last; v += 3) {
            assertThat(traces.find(id, v)).as("version %d is inside the window", v).isPresent();
        }
        assertThat(traces.find(id, 3)).isEmpty();
        assertThat(inWindow).isPositive();
        assertThat(redis.hash(String.class).hlen(SessionKeys.trace(id))).as("bounded by the retention plus the sweep slack")
                .isLessThanOrEqualTo(retention + 65L);
        store.delete(id);
    }
}
