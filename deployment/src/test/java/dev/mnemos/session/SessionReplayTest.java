package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The replay log reproduces every state, across checkpoints, rollbacks and forks. */
class SessionReplayTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties");

    @Inject
    SessionStore store;

    @Inject
    RedisDataSource redis;

    @Test
    void replayingTheLogFromVersionOneYieldsTheCurrentStateAfterPatchesRollbacksAndFork() {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("g").build()).by("t"))
                .sessionId();
        List<SessionState> seen = new ArrayList<>();
        seen.add(store.get(id));
        for (int i = 0; i < 120; i++) {
            SessionPatch.Builder p = SessionPatch.builder().putCollected("k" + (i % 7), "v" + i).stepPointer(i, "s" + i);
            if (i % 5 == 0)
                p.addConstraint(new Constraint("c" + (i % 3), "constraint " + i, Scope.TASK, "user"));
            if (i % 11 == 0)
                p.addPlan("plan at " + i, null, null);
            if (i % 13 == 0)
                p.addOpenQuestion("q" + (i % 4)).answerOpenQuestion("q" + ((i + 1) % 4));
            if (i % 17 == 0)
                p.removeCollected("k3").removeConstraint("c1");
            if (i % 19 == 0)
                p.addObservation(new Observation(null, "likes tea " + i, null, Scope.STABLE, null, true, null));
            store.apply(StepWrite.of(id, p.build()).noting("step " + i).by("t"));
            if (i == 60)
                store.rollback(Rollback.of(id, 20).by("t"));
            if (i == 90)
                store.apply(StepWrite.of(id, SessionPatch.builder().evaluatePlan(1, 7.0, "ok").build()).by("t"));
            seen.add(store.get(id));
        }
        SessionState current = store.get(id);
        List<SessionEvent> log = store.events(id, 1, 10_000);
        assertThat(SessionReplay.replay(null, log)).isEqualTo(current);
        for (SessionState past : seen) {
            assertThat(store.at(id, past.version())).as("version %d", past.version()).isEqualTo(past);
        }

        SessionState fork = store.fork(Fork.of(id, 40).by("t"));
        store.apply(StepWrite.of(fork.sessionId(), SessionPatch.builder().goal("forked goal").build()).by("t"));
        SessionState forkNow = store.get(fork.sessionId());
        assertThat(SessionReplay.replay(null, store.events(fork.sessionId(), 1, 100))).isEqualTo(forkNow);
        assertThat(store.get(id)).as("the parent is untouched by its fork").isEqualTo(current);
    }

    @Test
    void rollbackCreatesNewVersionEqualToTargetAndKeepsHistory() {
        String id = store
                .create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("v1 goal").build()).by("t"))
                .sessionId();
        store.apply(StepWrite.of(id, SessionPatch.builder().goal("v2 goal").addPlan("plan A", 5.0, "meh").build()).by("t"));
        store.apply(StepWrite.of(id, SessionPatch.builder().addPlan("plan B", 8.0, "good").build()).by("t"));
        SessionState v2 = store.at(id, 2);

        SessionState rolled = store.rollback(Rollback.of(id, 2).expecting(3).by("t"));

        assertThat(rolled.version()).isEqualTo(4);
        assertThat(store.get(id)).isEqualTo(rolled);
        assertThat(rolled.plans()).isEqualTo(v2.plans());
        assertThat(rolled.goal()).isEqualTo("v2 goal");
        assertThat(store.at(id, 3).plans()).hasSize(2);
        SessionEvent last = store.events(id, 4, 1).get(0);
        assertThat(last.type()).isEqualTo(SessionEvent.Type.ROLLBACK);
        assertThat(last.toVersion()).isEqualTo(2);
    }

    @Test
    void forkStartsANewSessionOfTheSameUserLinkedToItsParent() {
        SessionState parent = store
                .create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("trip").build()).by("t"));
        store.apply(StepWrite.of(parent.sessionId(), SessionPatch.builder().putCollected("city", "Rome").build()).by("t"));
        store.apply(StepWrite.of(parent.sessionId(), SessionPatch.builder().putCollected("city", "Oslo").build()).by("t"));

        SessionState fork = store.fork(Fork.of(parent.sessionId(), 2).by("t"));

        assertThat(fork.sessionId()).isNotEqualTo(parent.sessionId());
        assertThat(fork.userId()).isEqualTo(parent.userId());
        assertThat(fork.version()).isEqualTo(1);
        assertThat(fork.collected()).containsEntry("city", "Rome");
        assertThat(fork.forkedFrom()).isEqualTo(new ForkOrigin(parent.sessionId(), 2));
        assertThat(store.liveSessions(parent.userId())).containsExactlyInAnyOrder(parent.sessionId(), fork.sessionId());
        assertThat(redis.key().pttl(SessionKeys.userSessions(parent.userId()))).as("every key has a TTL").isPositive();
        SessionKeys.all(fork.sessionId()).stream().filter(k -> redis.key().exists(k))
                .forEach(k -> assertThat(redis.key().pttl(k)).as(k).isPositive());
    }
}
