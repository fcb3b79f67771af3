package dev.mnemos.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Changing {@code checkpoint-every} on a running deployment: versions of sessions written under the
 * old interval still rebuild exactly (from an older checkpoint), and a version whose replay entries
 * are gone answers "gone" rather than a wrongly rebuilt state.
 */
class CheckpointIntervalChangeTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties");

    @Inject
    RedisDataSource redis;
    @Inject
    ObjectMapper json;

    SessionConfig every(int checkpointEvery, int retention) {
        return new SessionConfig() {
            public Duration ttl() {
                return Duration.ofMinutes(10);
            }

            public int historyRetention() {
                return retention;
            }

            public int checkpointEvery() {
                return checkpointEvery;
            }

            public int maxTextChars() {
                return 10_000;
            }

            public int maxPlanChars() {
                return 10_000;
            }

            public int maxItemsPerPatch() {
                return 100;
            }

            public Duration redisTimeout() {
                return Duration.ofSeconds(3);
            }

            public Duration slowRedisTimeout() {
                return Duration.ofSeconds(5);
            }

            public int maxLivePerUser() {
                return 1000;
            }

            public long maxSessionBytes() {

                return 1 << 20;

            }

            public long maxUserBytes() {

                return 0;

            }
        };
    }

    @Test
    void versionsWrittenUnderAnotherIntervalRebuildExactly() {
        RedisSessionStore old = new RedisSessionStore(redis, every(10, 1000), json);
        RedisSessionStore changed = new RedisSessionStore(redis, every(4, 1000), json);
        String id = old.create(NewSession.of("interval-user", SessionPatch.builder().goal("g").build()).by("t")).sessionId();
        Map<Long, SessionState> written = new HashMap<>();
        for (int i = 1; i <= 45; i++) {
            SessionPatch.Builder patch = SessionPatch.builder().putCollected("k" + (i % 7), "v" + i);
            if (i % 5 == 0) {
                patch.addPlan("plan " + i, null, null);
            }
            long version = old.apply(StepWrite.of(id, patch.build()).by("t")).version();
            written.put(version, old.at(id, version));
        }
        for (long v = 2; v <= 46; v++) {
            assertThat(changed.at(id, v)).as("version %d", v).isEqualTo(written.get(v));
        }
        // later writes keep undo records only, and mixed histories still rebuild
        for (int i = 0; i < 10; i++) {
            changed.apply(StepWrite.of(id, SessionPatch.builder().putCollected("n", "x" + i).build()).by("t"));
        }
        assertThat(changed.at(id, 44)).isEqualTo(written.get(44L));
        assertThat(changed.at(id, 52).collected()).containsEntry("n", "x5");
        changed.delete(id);
    }

    @Test
    void aVersionWhoseHistoryIsGoneIsGoneNotGuessed() {
        RedisSessionStore store = new RedisSessionStore(redis, every(10, 1000), json);
        String id = store.create(NewSession.of("interval-user", SessionPatch.builder().goal("g").build()).by("t")).sessionId();
        for (int i = 1; i <= 25; i++) {
            store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("k", "v" + i).build()).by("t"));
        }
        // without the undo records of versions 13 to 15 (their block: versions 0 to 15), versions before them are
        // replayed from the log, as sessions written with checkpoints are; with a replay entry gone too, they are gone
        redis.hash(String.class).hdel(SessionKeys.snapshots(id), "U0");
        assertThat(store.at(id, 12).collected()).containsEntry("k", "v11");
        assertThat(store.at(id, 13).collected()).containsEntry("k", "v12");
        redis.execute("XDEL", SessionKeys.events(id), "5-0");
        assertThatThrownBy(() -> store.at(id, 12)).isInstanceOf(VersionGoneException.class);
        assertThat(store.at(id, 21).collected()).containsEntry("k", "v20");
        store.delete(id);
    }
}
