package dev.mnemos.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session written by the release that kept full checkpoints (its write script, kept under
 * {@code legacy-lua/}, run as it was) goes on under undo records: every version of the retention window
 * reads back as it was, through the checkpoints while the window holds versions written before the
 * upgrade; then the checkpoints are dropped. The byte counters the scripts keep match the bytes in Redis.
 */
class LegacyCheckpointsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(
                    jar -> jar.addAsResource("legacy-lua/session-common.lua").addAsResource("legacy-lua/session-patch.lua"))
            .withConfigurationResource("mnemos-test.properties");

    @Inject
    RedisDataSource redis;
    @Inject
    ObjectMapper json;

    @Test
    void aSessionWrittenWithCheckpointsReadsEveryKeptVersionAndDropsThemOnceTheWindowMovesOn() throws IOException {
        RedisSessionStore store = new RedisSessionStore(redis, config(), json);
        String id = store
                .create(NewSession.of("legacy-" + SessionIds.newId(), SessionPatch.builder().goal("g").build()).by("t"))
                .sessionId();
        SessionScripts legacy = SessionScripts.of(text("session-common.lua") + text("session-patch.lua"));
        Map<Long, SessionState> seen = new HashMap<>();
        for (int i = 2; i <= 45; i++) {
            Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            SessionPatch patch = SessionPatch.builder().putCollected("k" + (i % 4), "v" + i).build();
            String event = json.writeValueAsString(new SessionEvent(0, SessionEvent.Type.PATCH, at, "t", null, patch, null,
                    null));
            legacy.execute(redis, SessionKeys.all(id), List.of("-1", "600000", event, "10", "30",
                    Long.toString(at.toEpochMilli()), "", "S", "k:k" + (i % 4), "v" + i, "", "", ""));
            seen.put((long) i, store.get(id));
        }
        // as the earlier release left it: checkpoints, no undo records, no counters, no session actor
        redis.hash(String.class).hdel(SessionKeys.snapshots(id), "size", "log", "granted", "legacy", "cw", "actor");
        assertThat(redis.hash(String.class).hkeys(SessionKeys.snapshots(id))).containsExactlyInAnyOrder("10", "20", "30",
                "40");
        for (int i = 46; i <= 60; i++) {
            store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("k" + (i % 4), "v" + i).build()).by("t"));
            seen.put((long) i, store.get(id));
        }
        for (long v = 31; v <= 60; v++) {
            assertThat(store.at(id, v)).as("version %d", v).isEqualTo(seen.get(v));
        }
        assertThat(store.events(id, 31, 100)).as("the actor of entries written before and after the upgrade").hasSize(30)
                .extracting(SessionEvent::actor).containsOnly("t");
        assertCountersMatchRedis(id);

        for (int i = 61; i <= 90; i++) {
            store.apply(StepWrite
                    .of(id, SessionPatch.builder().putCollected("k" + (i % 4), "v" + i).removeCollected("k" + ((i + 1) % 4))
                            .build())
                    .by("t")).version();
            seen.put((long) i, store.get(id));
        }
        assertThat(redis.hash(String.class).hkeys(SessionKeys.snapshots(id))).as("checkpoints dropped")
                .noneMatch(field -> field.matches("\\d+"));
        for (long v = 61; v <= 90; v++) {
            assertThat(store.at(id, v)).as("version %d", v).isEqualTo(seen.get(v));
        }
        assertCountersMatchRedis(id);
        store.delete(id);
    }

    /**
     * {@code size}: the state's and the plans' field names and values; {@code log}: the replay entries, undo records and
     * checkpoints.
     */
    private void assertCountersMatchRedis(String id) {
        long size = 0;
        for (var field : redis.hash(String.class).hgetall(SessionKeys.state(id)).entrySet()) {
            size += bytes(field.getKey()) + bytes(field.getValue());
        }
        for (var field : redis.hash(String.class).hgetall(SessionKeys.plans(id)).entrySet()) {
            size += bytes(field.getKey()) + bytes(field.getValue());
        }
        long log = 0;
        for (StreamMessage<String, String, String> entry : redis.stream(String.class).xrange(SessionKeys.events(id),
                StreamRange.of("-", "+"))) {
            log += bytes(entry.id());
            for (var field : entry.payload().entrySet()) {
                log += bytes(field.getKey()) + bytes(field.getValue());
            }
        }
        List<String> undo = new ArrayList<>(redis.hash(String.class).hkeys(SessionKeys.snapshots(id)));
        undo.removeIf(field -> !field.matches("[uUc]\\d+"));
        for (String field : undo) {
            log += bytes(field) + redis.hash(String.class).hstrlen(SessionKeys.snapshots(id), field);
        }
        var counters = redis.hash(String.class).hmget(SessionKeys.snapshots(id), "size", "log");
        assertThat(Long.parseLong(counters.get("size"))).as("size").isEqualTo(size);
        assertThat(Long.parseLong(counters.get("log"))).as("log").isEqualTo(log);
    }

    private static long bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private String text(String name) throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/legacy-lua/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static SessionConfig config() {
        return new SessionConfig() {
            @Override
            public Duration ttl() {
                return Duration.ofMinutes(10);
            }

            @Override
            public int historyRetention() {
                return 30;
            }

            @Override
            public int checkpointEvery() {
                return 10;
            }

            @Override
            public int maxTextChars() {
                return 10_000;
            }

            @Override
            public int maxPlanChars() {
                return 50_000;
            }

            @Override
            public int maxItemsPerPatch() {
                return 200;
            }

            @Override
            public Duration redisTimeout() {
                return Duration.ofSeconds(3);
            }

            @Override
            public Duration slowRedisTimeout() {
                return Duration.ofSeconds(5);
            }

            @Override
            public int maxLivePerUser() {
                return 1000;
            }

            @Override
            public long maxSessionBytes() {
                return 1 << 20;
            }

            @Override
            public long maxUserBytes() {
                return 1 << 20;
            }
        };
    }
}
