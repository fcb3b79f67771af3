package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisSessionStoreTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties");

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;
    @Inject
    SessionConfig config;

    private SessionState newSession() {
        return store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("plan a trip")
                .addConstraint(new Constraint(null, "budget 5000 this time", Scope.TASK, "user")).build()).by("test"));
    }

    @Test
    void aRetiredSessionCannotStartAgainUnderItsIdWhileItsMarkerLives() {
        String id = SessionIds.newId();
        String user = "u-" + SessionIds.newId();
        assertThat(store.createIfAbsent(id, NewSession.of(user, SessionPatch.builder().goal("g").build()).by("t"))).isPresent();
        store.retire(id);

        assertThat(SessionKeys.all(id)).allSatisfy(key -> assertThat(redis.key().exists(key)).as(key).isFalse());
        assertThat(store.liveSessions(user)).isEmpty();
        assertThat(redis.key().pttl(SessionKeys.ended(id))).isBetween(1L, config.ttl().toMillis());
        assertThatThrownBy(
                () -> store.createIfAbsent(id, NewSession.of(user, SessionPatch.builder().goal("again").build()).by("t")))
                .isInstanceOf(SessionEndedException.class);
        assertThat(redis.key().exists(SessionKeys.state(id))).as("nothing written").isFalse();
        assertThat(store.liveSessions(user)).as("nor reserved").isEmpty();

        redis.key().del(SessionKeys.ended(id));
        assertThat(store.createIfAbsent(id, NewSession.of(user, SessionPatch.builder().goal("again").build()).by("t")))
                .isPresent();
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
        store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("city", "Kyoto").stepPointer(1, "collect").build())
                .noting("n1").by("test"));
        store.apply(
                StepWrite.of(id, SessionPatch.builder().addPlan("1. book\n2. go", null, null).addOpenQuestion("when?").build())
                        .expecting(2).by("test"));
        long v = store
                .apply(StepWrite.of(id, SessionPatch.builder().evaluatePlan(1, 6.5, "too vague").answerOpenQuestion("when?")
                        .addPlan("1. book flights\n2. hotel", 8.0, "better").build()).expecting(3).by("test"))
                .version();
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
        store.apply(StepWrite.of(s.sessionId(), SessionPatch.builder().goal("g2").build()).expecting(1).by("test"));
        assertThatThrownBy(() -> store
                .apply(StepWrite.of(s.sessionId(), SessionPatch.builder().goal("g3").build()).expecting(1).by("test"))
                .version())
                .isInstanceOfSatisfying(StaleVersionException.class, e -> assertThat(e.actual()).isEqualTo(2));
        assertThat(store.get(s.sessionId()).goal()).isEqualTo("g2");
    }

    @Test
    void evaluatingMissingPlanWritesNothing() {
        SessionState s = newSession();
        assertThatThrownBy(() -> store.apply(StepWrite.of(s.sessionId(), SessionPatch.builder().goal("changed")
                .evaluatePlan(7, 5.0, "x").build()).by("test")).version())
                .isInstanceOf(InvalidPatchException.class);
        assertThat(store.get(s.sessionId())).isEqualTo(s);
    }

    @Test
    void recentCarriesOnlyTheNewestPlansAndEverythingElseWhole() {
        SessionState s = newSession();
        for (int i = 1; i <= 10; i++) {
            store.apply(StepWrite.of(s.sessionId(), SessionPatch.builder().addPlan("plan " + i, i % 2 == 0 ? 5.0 : null, null)
                    .putCollected("k" + i, "v").build()).by("test")).version();
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
