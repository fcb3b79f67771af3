package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.keys.KeyScanArgs;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The checkpoints that keep old versions cheap (retention 1,000, a checkpoint tried every 25 versions): on the
 * benchmark's 1,000-step workload every old version reads, forks and rolls back exactly as it was written, the
 * checkpoints follow the retention window, forgetting blanks their copies of the text, and deleting or retiring a
 * session leaves none behind.
 */
class SessionCheckpointsTest {

    private static final String SECRET = "passport number X1234567";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.session.history-retention", "1000")
            .overrideConfigKey("quarkus.mnemos.session.checkpoint-every", "25");

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;
    @Inject
    RedisSessionScrub scrub;

    @Test
    void oldVersionsReadForkAndRollBackAsTheyWereWrittenAndCheckpointsFollowTheWindow() {
        String id = benchmarkSession();
        Set<Long> watched = Set.of(2L, 10L, 24L, 25L, 26L, 500L, 991L, 1000L, 1001L);
        Map<Long, SessionState> seen = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            long version = store.apply(StepWrite.of(id, step(i)).expecting(i + 1).by("t")).version();
            if (watched.contains(version)) {
                seen.put(version, store.get(id));
            }
        }
        List<Long> checkpoints = checkpoints(id);
        assertThat(checkpoints).as("checkpoints taken").first().isEqualTo(25L);
        assertThat(gaps(checkpoints)).as("versions between checkpoints").allMatch(gap -> gap % 25 == 0 && gap <= 125);
        for (long version : seen.keySet()) {
            assertThat(store.at(id, version)).as("version %d", version).isEqualTo(seen.get(version));
        }
        for (long version : List.of(10L, 500L)) {
            SessionState fork = store.fork(Fork.of(id, version).by("t"));
            assertThat(content(fork)).as("fork from %d", version).isEqualTo(content(seen.get(version)));
            assertThat(fork.forkedFrom()).isEqualTo(new ForkOrigin(id, version));
            store.delete(fork.sessionId());
        }
        SessionState rolledBack = store.rollback(Rollback.of(id, 10).expecting(1001).by("t"));
        assertThat(content(rolledBack)).as("rollback to 10").isEqualTo(content(seen.get(10L)));
        assertThat(store.at(id, 1002)).isEqualTo(rolledBack);
        SessionState again = store.rollback(Rollback.of(id, 26).expecting(1002).by("t"));
        assertThat(content(again)).as("rollback to 26").isEqualTo(content(seen.get(26L)));
        assertThat(store.at(id, 10)).as("version 10 after the rollbacks").isEqualTo(seen.get(10L));
        assertThat(store.at(id, 1001)).isEqualTo(seen.get(1001L));

        for (int i = 1000; i < 1300; i++) {
            store.apply(StepWrite.of(id, step(i)).by("t"));
        }
        long oldest = 1303 - 1000 + 1;
        assertThat(checkpoints(id)).as("checkpoints of the window only").allMatch(v -> v >= oldest).isNotEmpty();
        assertThat(redis.hash(String.class).hkeys(SessionKeys.snapshots(id)).stream().filter(f -> f.matches("c\\d+")))
                .as("one field per listed checkpoint").hasSameSizeAs(checkpoints(id));
        assertThat(store.at(id, 500)).isEqualTo(seen.get(500L));
        assertThat(store.at(id, oldest).version()).isEqualTo(oldest);
        assertThatThrownBy(() -> store.at(id, oldest - 1)).isInstanceOf(VersionGoneException.class);
        assertThat(loggedBytes(id)).as("the log counter counts the checkpoints")
                .isEqualTo(Long.parseLong(redis.hash(String.class).hget(SessionKeys.snapshots(id), "log")));
        store.delete(id);
    }

    @Test
    void forgettingBlanksTheTextOutOfTheCheckpoints() {
        String id = benchmarkSession();
        for (int i = 0; i < 60; i++) {
            SessionPatch.Builder patch = SessionPatch.builder().stepPointer(i, "step");
            if (i == 3) {
                patch.putCollected("document", SECRET);
            } else if (i == 40) {
                patch.removeCollected("document");
            }
            store.apply(StepWrite.of(id, patch.build()).by("t"));
        }
        assertThat(checkpoints(id)).containsExactly(25L, 50L);
        assertThat(checkpointText(id, 25)).as("the checkpoint holds the text before forgetting").contains(SECRET);

        assertThat(scrub.scrub(id, "[forgotten]", List.of(SECRET))).isPositive();

        for (long checkpoint : checkpoints(id)) {
            assertThat(checkpointText(id, checkpoint)).as("checkpoint %d", checkpoint).doesNotContain(SECRET);
        }
        assertThat(checkpointText(id, 25)).contains("[forgotten]");
        assertThat(store.at(id, 25).collected()).containsEntry("document", "[forgotten]");
        assertThat(store.at(id, 10).collected()).containsEntry("document", "[forgotten]");
        assertThat(store.at(id, 50).collected()).doesNotContainKey("document");
        store.delete(id);
    }

    @Test
    void deletingOrRetiringASessionLeavesNoCheckpoint() {
        String deleted = sessionWithCheckpoints();
        store.delete(deleted);
        assertThat(keysOf(deleted)).as("keys left after delete").isEmpty();

        String retired = sessionWithCheckpoints();
        store.end(retired, "t");
        store.retire(retired);
        assertThat(keysOf(retired)).as("keys left after retire: the ended marker only")
                .containsExactly(SessionKeys.ended(retired));
        redis.key().del(SessionKeys.ended(retired));
    }

    private String sessionWithCheckpoints() {
        String id = benchmarkSession();
        for (int i = 0; i < 60; i++) {
            store.apply(StepWrite.of(id, step(i)).by("t"));
        }
        assertThat(checkpoints(id)).isNotEmpty();
        return id;
    }

    private String benchmarkSession() {
        return store.create(NewSession.of("cp-" + SessionIds.newId(), SessionPatch.builder().goal("benchmark")
                .addConstraint(new Constraint(null, "budget 5000 this time", Scope.TASK, "user")).build()).by("t"))
                .sessionId();
    }

    /**
     * Step {@code i} of the issue-13 workload, as SessionStoreBenchmark (server/src/bench) writes it: a collected
     * key and the step pointer every step, a ~1.1 KB plan every 10th, a constraint every 25th.
     */
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

    /** The state without what a fork or rollback gives anew (id, version, times, parent). */
    private static List<Object> content(SessionState state) {
        return Arrays.asList(state.userId(), state.status(), state.goal(), state.context(), state.constraints(),
                state.openQuestions(), state.collected(), state.stepPointer(), state.plans(), state.observations(),
                state.summary());
    }

    private List<Long> checkpoints(String id) {
        String listed = redis.hash(String.class).hget(SessionKeys.snapshots(id), "cps");
        return listed == null ? List.of() : Arrays.stream(listed.split(",")).map(Long::valueOf).toList();
    }

    private static List<Long> gaps(List<Long> versions) {
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < versions.size(); i++) {
            gaps.add(versions.get(i) - versions.get(i - 1));
        }
        return gaps;
    }

    /** A checkpoint's MessagePack bytes as text: its strings keep their bytes. */
    private String checkpointText(String id, long version) {
        byte[] packed = redis.hash(byte[].class).hget(SessionKeys.snapshots(id), "c" + version);
        return new String(packed, StandardCharsets.UTF_8);
    }

    /** The replay entries, undo records and checkpoints, in bytes of names and values. */
    private long loggedBytes(String id) {
        long log = 0;
        for (StreamMessage<String, String, String> entry : redis.stream(String.class).xrange(SessionKeys.events(id),
                StreamRange.of("-", "+"))) {
            log += bytes(entry.id());
            for (var field : entry.payload().entrySet()) {
                log += bytes(field.getKey()) + bytes(field.getValue());
            }
        }
        for (String field : redis.hash(String.class).hkeys(SessionKeys.snapshots(id))) {
            if (field.matches("[uUc]\\d+")) {
                log += bytes(field) + redis.hash(String.class).hstrlen(SessionKeys.snapshots(id), field);
            }
        }
        return log;
    }

    private static long bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Every key under the session's hash tag, by SCAN. */
    private List<String> keysOf(String id) {
        List<String> keys = new ArrayList<>();
        redis.key().scan(new KeyScanArgs().match("mnemos:{s:" + id + "}*").count(1000)).toIterable().forEach(keys::add);
        return keys;
    }
}
