package dev.mnemos.capture;

import dev.mnemos.injection.DefaultStepWriter;
import dev.mnemos.injection.StepCall;
import dev.mnemos.injection.StepCapture;
import dev.mnemos.injection.StepOutput;
import dev.mnemos.promotion.Markers;
import dev.mnemos.session.Constraint;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The default capture of a turn, on a conversation in English and one in Chinese. */
class TurnCaptureTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final TurnCapture capture = new TurnCapture(Markers.DEFAULT);
    private final DefaultStepWriter writer = new DefaultStepWriter(capture);
    private int ids;

    @Test
    void threeEnglishTurnsGiveAGoalATaskConstraintAndAStandingStatement() {
        SessionState s = empty();
        s = turn(s, "I want a 3-day trip to Kyoto", "Sure. Which month do you travel?");
        assertThat(s.goal()).isEqualTo("I want a 3-day trip to Kyoto");
        assertThat(s.openQuestions()).containsExactly("Which month do you travel?");

        s = turn(s, "budget 5000 this time", "Noted.");
        assertThat(s.openQuestions()).as("the user's next message answers the question").isEmpty();
        s = turn(s, "from now on always answer in French", "D'accord.");

        assertThat(s.goal()).isEqualTo("I want a 3-day trip to Kyoto");
        assertThat(s.constraints()).extracting(Constraint::text, Constraint::scope).containsExactly(
                tuple("budget 5000 this time", Scope.TASK),
                tuple("from now on always answer in French", Scope.STABLE));
        assertThat(s.observations()).extracting(Observation::text, Observation::scope, Observation::slot)
                .containsExactly(tuple("from now on always answer in French", Scope.STABLE,
                        "output.language"));
    }

    @Test
    void threeChineseTurnsGiveAGoalATaskConstraintAndAStandingStatement() {
        SessionState s = empty();
        s = turn(s, "帮我计划一个去京都的三天旅行", "好的。你打算几月去？");
        assertThat(s.goal()).isEqualTo("帮我计划一个去京都的三天旅行");
        assertThat(s.openQuestions()).containsExactly("你打算几月去？");

        s = turn(s, "这次预算五千", "好的。");
        s = turn(s, "以后都用法语回答", "D'accord.");

        assertThat(s.constraints()).extracting(Constraint::text, Constraint::scope).containsExactly(
                tuple("这次预算五千", Scope.TASK),
                tuple("以后都用法语回答", Scope.STABLE));
        assertThat(s.observations()).extracting(Observation::text, Observation::scope)
                .containsExactly(tuple("以后都用法语回答", Scope.STABLE));
        assertThat(s.openQuestions()).isEmpty();
    }

    @Test
    void aMixedMessageIsSplitIntoItsClauses() {
        SessionState s = turn(empty(), "Plan a weekend in Lisbon, I'm vegetarian", "Sure.");
        assertThat(s.goal()).isEqualTo("Plan a weekend in Lisbon");
        s = turn(s, "No flights this time, and I never take red-eye trains", "Sure.");
        assertThat(s.constraints()).extracting(Constraint::text, Constraint::scope).containsExactly(
                tuple("I'm vegetarian", Scope.STABLE), tuple("No flights this time", Scope.TASK),
                tuple("I never take red-eye trains", Scope.STABLE));
        assertThat(s.observations()).extracting(Observation::text).containsExactly("I'm vegetarian",
                "I never take red-eye trains");
    }

    @Test
    void aQuestionAboutTheUserIsNotAStatementAboutThem() {
        SessionState s = turn(empty(), "Plan a weekend in Lisbon", "Sure.");
        s = turn(s, "Am I too late for the tram museum?", "No.");
        assertThat(s.observations()).isEmpty();
        assertThat(capture.observations("Am I too late for the tram museum? My knees are bad", false))
                .extracting(Observation::text, Observation::scope).containsExactly(tuple("My knees are bad", Scope.UNKNOWN));
    }

    @Test
    void aChangedTaskChangesTheGoal() {
        SessionState s = turn(empty(), "Plan a weekend in Lisbon", "Sure.");
        s = turn(s, "Let's go to Porto instead", "Sure.");
        assertThat(s.goal()).isEqualTo("Let's go to Porto instead");
        s = turn(turn(empty(), "帮我计划去杭州的周末", "好的。"), "改成去苏州", "好的。");
        assertThat(s.goal()).isEqualTo("改成去苏州");
    }

    @Test
    void aStatementSaidTwiceIsKeptOnce() {
        SessionState s = turn(empty(), "Plan a weekend in Lisbon", "Sure.");
        s = turn(s, "I never eat seafood", "Sure.");
        s = turn(s, "I never eat seafood", "Sure.");
        assertThat(s.constraints()).hasSize(1);
        assertThat(s.observations()).hasSize(1);
    }

    @Test
    void aQuestionOrAPlainRequestAddsNoConstraintARestrictionDoes() {
        SessionState s = turn(empty(), "Plan a weekend in Lisbon", "Sure.");
        s = turn(s, "Is Sunday a good day for Sintra?", "Yes.");
        s = turn(s, "Find me a hotel", "Here.");
        assertThat(s.constraints()).isEmpty();
        s = turn(s, "No flights", "Sure.");
        assertThat(s.constraints()).extracting(Constraint::text, Constraint::scope)
                .containsExactly(tuple("No flights", Scope.TASK));
        s = turn(turn(empty(), "帮我订去成都的机票", "好的。"), "不要红眼航班", "好的。");
        assertThat(s.constraints()).extracting(Constraint::text, Constraint::scope)
                .containsExactly(tuple("不要红眼航班", Scope.TASK));
    }

    @Test
    void withoutCaptureOnlyTheAnswerIsWritten() {
        SessionPatch patch = new DefaultStepWriter(StepCapture.NONE)
                .patch(call(empty(), "I want a 3-day trip to Kyoto", "Sure?"));
        assertThat(patch.goal()).isNull();
        assertThat(patch.addConstraints()).isEmpty();
        assertThat(patch.addOpenQuestions()).isEmpty();
        assertThat(patch.putCollected()).containsEntry("answer.advise", "Sure?");
    }

    private SessionState turn(SessionState s, String message, String answer) {
        SessionPatch patch = writer.patch(call(s, message, answer)).withIds(() -> "id-" + ++ids);
        return patch.applyTo(s, s.version() + 1, T0);
    }

    private static StepCall call(SessionState s, String message, String answer) {
        return new StepCall(null, List.of(), answer, s, "advise", StepOutput.TEXT, message);
    }

    private static SessionState empty() {
        return new SessionState("s-1", "u-1", 1, T0, T0, SessionState.Status.ACTIVE, null, null, List.of(), List.of(),
                Map.of(), null, List.of(), List.of(), null, null);
    }
}
