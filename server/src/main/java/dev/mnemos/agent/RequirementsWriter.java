package dev.mnemos.agent;

import dev.mnemos.injection.StepCall;
import dev.mnemos.injection.StepWriter;
import dev.mnemos.profile.FactText;
import dev.mnemos.session.Constraint;
import dev.mnemos.session.Observation;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;

/**
 * Writes a requirement analysis: the goal when the session has none, each constraint with its
 * scope, each preference or fact as an observation (a promotion candidate, with the words that
 * state it as evidence) unless the session already observes it, the open question, and the step pointer (which never moves
 * back).
 */
public class RequirementsWriter implements StepWriter {

    @Override
    public SessionPatch patch(StepCall call) {
        Requirements req = (Requirements) call.result();
        SessionState s = call.state();
        SessionPatch.Builder patch = SessionPatch.builder();
        boolean newGoal = s.goal() == null && req.goal() != null;
        if (newGoal) {
            patch.goal(req.goal());
        }
        req.findings().stream().filter(f -> f.kind() == Finding.Kind.CONSTRAINT || !observed(s, f.text()))
                .forEach(f -> record(patch, f));
        if (newGoal || !req.findings().isEmpty()) {
            s.openQuestions().forEach(patch::answerOpenQuestion);
        }
        if (req.question() != null) {
            patch.addOpenQuestion(req.question());
        }
        TaskStep step = s.goal() != null || newGoal ? TaskStep.COLLECT_CONSTRAINTS : TaskStep.COLLECT_GOAL;
        boolean behind = s.stepPointer() == null || s.stepPointer().index() <= step.ordinal();
        var pointer = behind ? step.pointer() : s.stepPointer();
        return patch.stepPointer(pointer.index(), pointer.name()).build();
    }

    /** Already an observation of the session (the agent captures standing statements before analysis). */
    private static boolean observed(SessionState s, String text) {
        String same = FactText.normalise(text);
        return s.observations().stream().anyMatch(o -> FactText.normalise(o.text()).equals(same));
    }

    private static void record(SessionPatch.Builder patch, Finding f) {
        if (f.kind() == Finding.Kind.CONSTRAINT) {
            patch.addConstraint(new Constraint(null, f.text(), f.scope(), "user"));
        } else {
            patch.addObservation(new Observation(null, f.text(), Observation.Kind.valueOf(f.kind().name()), f.scope(),
                    f.slot(), true, f.evidence()));
        }
    }
}
