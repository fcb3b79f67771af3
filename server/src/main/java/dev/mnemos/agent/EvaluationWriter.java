package dev.mnemos.agent;

import dev.mnemos.injection.StepCall;
import dev.mnemos.injection.StepWriter;
import dev.mnemos.session.SessionPatch;

/**
 * Stores the score and feedback with the plan version the brief named (not merely the newest one:
 * after a lost compare-and-set the newest may be another plan).
 */
public class EvaluationWriter implements StepWriter {

    @Override
    public SessionPatch patch(StepCall call) {
        Evaluation evaluation = (Evaluation) call.result();
        if (evaluation == null) {
            throw new ModelAnswerException("evaluate-plan", "a score and feedback");
        }
        int version = Briefs.evaluatedVersion(call.userMessage());
        return SessionPatch.builder().evaluatePlan(version, evaluation.score(), evaluation.feedback())
                .stepPointer(TaskStep.PLAN_EVALUATED.ordinal(), TaskStep.PLAN_EVALUATED.label()).build();
    }
}
