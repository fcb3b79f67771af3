package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.quarkus.redis.datasource.stream.XAddArgs;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 51: a version's replay entry leaves out its actor when it is the session's own (the first actor that wrote to
 * it, kept once in the snap hash), so a 36-character user id is not paid in every version. Every read of the log gives
 * each version the actor that wrote it: the session's own, another one, none, and the actor held in the event JSON of
 * entries written before.
 */
class SessionEventActorsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.session.history-retention", "20")
            .overrideConfigKey("quarkus.mnemos.session.checkpoint-every", "4");

    @Inject
    SessionStore store;
    @Inject
    RedisSessionScrub scrub;
    @Inject
    RedisDataSource redis;

    @Test
    void everyVersionReadsWithTheActorThatWroteItAndOnlyOtherActorsAreStoredInTheirEntries() {
        String user = SessionIds.newId();
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("g").build()).by(user)).sessionId();
        store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("a", "1").build()).by(user));
        store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("b", "2").build()).by("backend"));
        store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("c", "3").build()));
        store.apply(StepWrite.of(id, SessionPatch.builder().addPlan("a plan", null, null).build()).by(user));
        store.rollback(Rollback.of(id, 3).by("backend"));
        store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("d", "4").build()).by(user));
        List<String> actors = Arrays.asList(user, user, "backend", null, user, "backend", user);

        assertThat(store.events(id, 1, 100)).extracting(SessionEvent::actor).isEqualTo(actors);
        assertThat(store.events(id, 4, 2)).extracting(SessionEvent::actor).isEqualTo(actors.subList(3, 5));
        assertThat(redis.hash(String.class).hget(SessionKeys.snapshots(id), "actor")).isEqualTo(user);
        // the session's own actor is in no entry; another one is, apart from the event JSON; none is nowhere
        List<StreamMessage<String, String, String>> entries = entries(id);
        assertThat(entries).extracting(e -> e.payload().keySet().stream().sorted().toList()).containsExactly(
                List.of("o"), List.of("o"), List.of("a", "e"), List.of("e"), List.of("o", "p"), List.of("a", "e"),
                List.of("o"));
        assertThat(entries).allSatisfy(e -> assertThat(e.payload().values()).noneMatch(v -> v.contains("\"actor\"")));
        assertThat(entries.get(2).payload()).containsEntry("a", "backend");
        assertThat(entries.get(5).payload()).containsEntry("a", "backend");

        // a forget blanks texts, never the actors; past versions still read
        SessionState before = store.at(id, 6);
        assertThat(scrub.scrub(id, "[forgotten]", List.of("a plan"))).isPositive();
        assertThat(store.events(id, 1, 100)).extracting(SessionEvent::actor).isEqualTo(actors);
        assertThat(store.at(id, 2)).isNotNull();
        assertThat(store.at(id, 6).collected()).isEqualTo(before.collected());

        // a fork's own actor is whoever forked it
        SessionState fork = store.fork(Fork.of(id, 7).by("backend"));
        store.apply(StepWrite.of(fork.sessionId(), SessionPatch.builder().putCollected("e", "5").build()).by(user));
        assertThat(store.events(fork.sessionId(), 1, 10)).extracting(SessionEvent::actor).containsExactly("backend", user);
        assertThat(entries(fork.sessionId())).extracting(e -> e.payload().containsKey("o")).containsExactly(true, false);

        store.end(id, user);
        assertThat(store.events(id, 8, 10)).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(SessionEvent.Type.END);
            assertThat(e.actor()).isEqualTo(user);
        });
        store.delete(fork.sessionId());
        store.delete(id);
    }

    @Test
    void entriesWrittenBeforeHoldTheirActorInTheEventAndStillReadSo() {
        String user = SessionIds.newId();
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("g").build()).by(user)).sessionId();
        // a session as an earlier release wrote it: no actor of its own, the actor in each event JSON (none when the
        // write named none)
        redis.hash(String.class).hdel(SessionKeys.snapshots(id), "actor");
        redis.key().del(SessionKeys.events(id));
        String other = "{\"at\":1767225600000,\"actor\":\"backend\",\"patch\":{\"putCollected\":{\"a\":\"1\"}}}";
        String mine = "{\"at\":1767225600001,\"actor\":\"" + user + "\",\"patch\":{\"putCollected\":{\"b\":\"2\"}}}";
        String none = "{\"at\":1767225600002,\"patch\":{\"putCollected\":{\"c\":\"3\"}}}";
        List<String> earlier = List.of(other, mine, none);
        for (int i = 0; i < earlier.size(); i++) {
            redis.stream(String.class).xadd(SessionKeys.events(id), new XAddArgs().id((i + 1) + "-0"),
                    Map.of("e", earlier.get(i)));
        }
        redis.hash(String.class).hset(SessionKeys.state(id), "version", "3");
        assertThat(store.events(id, 1, 10)).extracting(SessionEvent::actor).containsExactly("backend", user, null);

        // its next write that names an actor makes that actor the session's own
        store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("d", "4").build()).by("backend"));
        store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("e", "5").build()).by(user));
        assertThat(store.events(id, 1, 10)).extracting(SessionEvent::actor).containsExactly("backend", user, null,
                "backend", user);
        assertThat(entries(id).subList(3, 5)).extracting(e -> e.payload().keySet().stream().sorted().toList())
                .containsExactly(List.of("o"), List.of("a", "e"));
        store.delete(id);
    }

    private List<StreamMessage<String, String, String>> entries(String id) {
        return redis.stream(String.class).xrange(SessionKeys.events(id), StreamRange.of("-", "+"));
    }
}
