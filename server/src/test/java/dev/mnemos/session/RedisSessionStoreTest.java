package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@QuarkusTest
class RedisSessionStoreTest {

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;
    @Inject
    SessionConfig config;

    private SessionState newSession() {
        return store.create("u-" + SessionIds.newId(), SessionPatch.builder().goal("plan a trip")
                .addConstraint(new Constraint(null, "budget 5000 this time", Scope.TASK, "user")).build(), "test");
    }

    @Test
    void aRetiredSessionCannotStartAgainUnderItsIdWhileItsMarkerLives() {
        String id = SessionIds.newId();
        String user = "u-" + SessionIds.newId();
        assertThat(store.createIfAbsent(id, user, SessionPatch.builder().goal("g").build(), "t")).isPresent();
        store.retire(id);

        assertThat(SessionKeys.all(id)).allSatisfy(key -> assertThat(redis.key().exists(key)).as(key).isFalse());
        assertThat(store.liveSessions(user)).isEmpty();
        assertThat(redis.key().pttl(SessionKeys.ended(id))).isBetween(1L, config.ttl().toMillis());
        assertThatThrownBy(() -> store.createIfAbsent(id, user, SessionPatch.builder().goal("again").build(), "t"))
                .isInstanceOf(SessionEndedException.class);
        assertThat(redis.key().exists(SessionKeys.state(id))).as("nothing written").isFalse();
        assertThat(store.liveSessions(user)).as("nor reserved").isEmpty();

        redis.key().del(SessionKeys.ended(id));
        assertThat(store.createIfAbsent(id, user, SessionPatch.builder().goal("again").build(), "t")).isPresent();
        store.delete(id);
    }

    @Test
    void createStartsAtVersionOneWithInitialFields() {
        SessionState s = newSession();
        SessionState read = store.get(s.sessionId());
        assertThat(read).isEqualTo(s);
        assertThat(read.version()).isEqualTo(1);
        assertThat(read.constraints()).extracting(Constraint::text).containsExactly("budget 5000 this time");
        assertThat(read.constraints().get(0).id()).isNotBlank();
    }

    @Test
    void everyWriteBumpsVersionByOneAndStateMatchesReplay() {
        SessionState s = newSession();
        String id = s.sessionId();
        store.write(id, SessionPatch.builder().putCollected("city", "Kyoto").stepPointer(1, "collect").build(),
                OptionalLong.empty(), "n1", "test");
        store.write(id, SessionPatch.builder().addPlan("1. book\n2. go", null, null).addOpenQuestion("when?").build(),
                OptionalLong.of(2), null, "test");
        long v = store.write(id, SessionPatch.builder().evaluatePlan(1, 6.5, "too vague").answerOpenQuestion("when?")
                .addPlan("1. book flights\n2. hotel", 8.0, "better").build(), OptionalLong.of(3), null, "test");
        assertThat(v).isEqualTo(4);
        SessionState current = store.get(id);
        assertThat(current.plans()).extracting(PlanVersion::version).containsExactly(1, 2);
        assertThat(current.plans().get(0).score()).isEqualTo(6.5);
        assertThat(current.plans().get(0).content()).isEqualTo("1. book\n2. go");
        assertThat(current.openQuestions()).isEmpty();
        List<SessionEvent> events = store.events(id, 1, 100);
        assertThat(events).extracting(SessionEvent::version).containsExactly(1L, 2L, 3L, 4L);
        assertThat(SessionReplay.replay(null, events)).isEqualTo(current);
    }

    @Test
    void staleExpectedVersionIsRejectedWithCurrentVersionAndNothingWritten() {
        SessionState s = newSession();
        store.write(s.sessionId(), SessionPatch.builder().goal("g2").build(), OptionalLong.of(1), null, "test");
        assertThatThrownBy(() -> store.write(s.sessionId(), SessionPatch.builder().goal("g3").build(),
                OptionalLong.of(1), null, "test"))
                .isInstanceOfSatisfying(StaleVersionException.class, e -> assertThat(e.actual()).isEqualTo(2));
        assertThat(store.get(s.sessionId()).goal()).isEqualTo("g2");
    }

    @Test
    void evaluatingMissingPlanWritesNothing() {
        SessionState s = newSession();
        assertThatThrownBy(() -> store.write(s.sessionId(), SessionPatch.builder().goal("changed")
                .evaluatePlan(7, 5.0, "x").build(), OptionalLong.empty(), null, "test"))
                .isInstanceOf(InvalidPatchException.class);
        assertThat(store.get(s.sessionId())).isEqualTo(s);
    }

    @Test
    void recentCarriesOnlyTheNewestPlansAndEverythingElseWhole() {
        SessionState s = newSession();
        for (int i = 1; i <= 10; i++) {
            store.write(s.sessionId(), SessionPatch.builder().addPlan("plan " + i, i % 2 == 0 ? 5.0 : null, null)
                    .putCollected("k" + i, "v").build(), OptionalLong.empty(), null, "test");
        }
        SessionState full = store.get(s.sessionId());
        SessionState recent = store.recent(s.sessionId(), 2);
        assertThat(full.plans()).hasSize(10);
        assertThat(recent.plans()).containsExactlyElementsOf(full.plans().subList(8, 10));
        assertThat(recent.plans().get(1).score()).isEqualTo(5.0);
        assertThat(recent.collected()).isEqualTo(full.collected());
        assertThat(recent.version()).isEqualTo(full.version());
        assertThat(store.recent(s.sessionId(), 0).plans()).isEmpty();
    }
}
