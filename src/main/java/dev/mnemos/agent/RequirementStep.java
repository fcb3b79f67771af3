package dev.mnemos.agent;

import dev.mnemos.session.Constraint;
import dev.mnemos.session.Observation;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Requirement analysis as a session step: the goal, each constraint with its scope, each preference
 * as an observation (a promotion candidate), the open question, and the step pointer.
 */
@ApplicationScoped
public class RequirementStep {

    private final RequirementAnalyst analyst;
    private final SessionSteps steps;

    public RequirementStep(RequirementAnalyst analyst, SessionSteps steps) {
        this.analyst = analyst;
        this.steps = steps;
    }

    public record Result(SessionState state, Requirements requirements) {
    }

    public Result run(Turn turn) {
        SessionState s = turn.state();
        Requirements req = analyst.analyze(turn.memory(), Briefs.analysis(s, turn.message()));
        SessionPatch.Builder patch = SessionPatch.builder();
        boolean newGoal = s.goal() == null && req.goal() != null;
        if (newGoal) {
            patch.goal(req.goal());
        }
        req.findings().forEach(f -> record(patch, f, turn.message()));
        if (newGoal || !req.findings().isEmpty()) {
            s.openQuestions().forEach(patch::answerOpenQuestion);
        }
        if (req.question() != null) {
            patch.addOpenQuestion(req.question());
        }
        TaskStep step = s.goal() != null || newGoal ? TaskStep.COLLECT_CONSTRAINTS : TaskStep.COLLECT_GOAL;
        if (patch.build().isEmpty() && s.stepPointer() != null && s.stepPointer().index() >= step.ordinal()) {
            return new Result(s, req);
        }
        if (s.stepPointer() == null || s.stepPointer().index() <= step.ordinal()) {
            patch.stepPointer(step.ordinal(), step.label());
        }
        return new Result(steps.write(s, patch.build(), "analyze-requirements"), req);
    }

    private static void record(SessionPatch.Builder patch, Finding f, String message) {
        if (f.kind() == Finding.Kind.CONSTRAINT) {
            patch.addConstraint(new Constraint(null, f.text(), f.scope(), "user"));
        } else {
            patch.addObservation(new Observation(null, f.text(), Observation.Kind.valueOf(f.kind().name()), f.scope(),
                    f.slot(), true, message));
        }
    }
}
