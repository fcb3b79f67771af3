package dev.mnemos.agent;

import dev.mnemos.injection.StepCall;
import dev.mnemos.injection.StepOutput;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.StepPointer;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What a requirement analysis writes into the session. */
class RequirementsWriterTest {

    private final RequirementsWriter writer = new RequirementsWriter();

    @Test
    void constraintsKeepTheirScopeAndPreferencesBecomeObservationsWithTheirOwnWords() {
        Requirements req = new Requirements("learn Spanish", List.of(
                new Finding("budget 20 euros this time", Finding.Kind.CONSTRAINT, Scope.TASK, null),
                new Finding("always answer in Chinese", Finding.Kind.INSTRUCTION, Scope.STABLE, "output.language")),
                "How long?");
        SessionPatch patch = writer.patch(call(state(null, null, List.of()), req));
        assertThat(patch.goal()).isEqualTo("learn Spanish");
        assertThat(patch.addConstraints()).extracting(c -> c.text() + "|" + c.scope())
                .containsExactly("budget 20 euros this time|TASK");
        Observation o = patch.addObservations().get(0);
        assertThat(List.<Object> of(o.kind(), o.scope(), o.slot(), o.evidence(), o.explicit()))
                .containsExactly(Observation.Kind.INSTRUCTION, Scope.STABLE, "output.language", "always answer in Chinese",
                        true);
        assertThat(patch.addOpenQuestions()).containsExactly("How long?");
        assertThat(patch.stepPointer()).isEqualTo(TaskStep.COLLECT_CONSTRAINTS.pointer());
    }

    @Test
    void aKnownGoalIsNotReplacedAndAnsweredQuestionsAreClosed() {
        Requirements req = new Requirements("something else", List.of(
                new Finding("3 months", Finding.Kind.CONSTRAINT, Scope.TASK, null)), null);
        SessionPatch patch = writer.patch(call(state("learn Spanish", null, List.of("How long?")), req));
        assertThat(patch.goal()).isNull();
        assertThat(patch.answerOpenQuestions()).containsExactly("How long?");
        assertThat(patch.addOpenQuestions()).isEmpty();
    }

    @Test
    void theStepPointerNeverMovesBack() {
        StepPointer evaluated = TaskStep.PLAN_EVALUATED.pointer();
        SessionPatch patch = writer
                .patch(call(state("learn Spanish", evaluated, List.of()), new Requirements(null, null, null)));
        assertThat(patch.stepPointer()).isEqualTo(evaluated);
    }

    private static StepCall call(SessionState state, Requirements result) {
        return new StepCall(null, List.of(), result, state, "analyze-requirements", StepOutput.TEXT, "## Message\nhi\n");
    }

    private static SessionState state(String goal, StepPointer pointer, List<String> questions) {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        return new SessionState("s", "u", 3, t, t, SessionState.Status.ACTIVE, goal, null, List.of(), questions,
                Map.of(), pointer, List.of(), List.of(), null, null);
    }
}
