package dev.mnemos.session;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionPatchTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Instant T1 = Instant.parse("2026-01-01T00:01:00Z");

    static SessionState empty() {
        return new SessionState("s", "u", 1, T0, T0, SessionState.Status.ACTIVE, null, null, List.of(), List.of(),
                Map.of(), null, List.of(), List.of(), null, null);
    }

    @Test
    void addingAnExistingIdReplacesItAndMovesItToTheEnd() {
        SessionState s = SessionPatch.builder()
                .addConstraint(new Constraint("a", "first", Scope.TASK, null))
                .addConstraint(new Constraint("b", "second", Scope.TASK, null)).build().applyTo(empty(), 2, T1);
        SessionState t = SessionPatch.builder().addConstraint(new Constraint("a", "first again", Scope.STABLE, null))
                .build().applyTo(s, 3, T1);
        assertThat(t.constraints()).extracting(Constraint::id).containsExactly("b", "a");
        assertThat(t.constraints().get(1).text()).isEqualTo("first again");
    }

    @Test
    void removalsApplyBeforeAdditionsAndUntouchedFieldsStay() {
        SessionState s = SessionPatch.builder().goal("g").putCollected("x", "1").putCollected("y", "2")
                .addOpenQuestion("q1").build().applyTo(empty(), 2, T1);
        SessionState t = SessionPatch.builder().removeCollected("x").putCollected("x", "3")
                .answerOpenQuestion("q1").addOpenQuestion("q2").build().applyTo(s, 3, T1);
        assertThat(t.goal()).isEqualTo("g");
        assertThat(t.collected()).containsExactly(Map.entry("x", "3"), Map.entry("y", "2"));
        assertThat(t.openQuestions()).containsExactly("q2");
        assertThat(t.version()).isEqualTo(3);
        assertThat(t.updatedAt()).isEqualTo(T1);
    }

    @Test
    void plansAreNumberedInOrderAndEvaluationStaysApartFromText() {
        SessionState s = SessionPatch.builder().addPlan("v1 text", null, null).build().applyTo(empty(), 2, T1);
        SessionState t = SessionPatch.builder().evaluatePlan(1, 4.0, "missing dates").addPlan("v2 text", null, null)
                .build().applyTo(s, 3, T1);
        assertThat(t.plans()).extracting(PlanVersion::version).containsExactly(1, 2);
        assertThat(t.plans().get(0).content()).isEqualTo("v1 text");
        assertThat(t.plans().get(0).feedback()).isEqualTo("missing dates");
        assertThat(t.latestPlan().content()).isEqualTo("v2 text");
    }

    @Test
    void evaluatingAMissingPlanIsRejected() {
        assertThatThrownBy(() -> SessionPatch.builder().evaluatePlan(3, 1.0, "x").build().applyTo(empty(), 2, T1))
                .isInstanceOfSatisfying(InvalidPatchException.class,
                        e -> assertThat(e.field()).isEqualTo("patch.evaluatePlan.version"));
    }
}
