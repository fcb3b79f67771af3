package dev.mnemos.agent;

import dev.mnemos.injection.StepCall;
import dev.mnemos.injection.StepWriter;
import dev.mnemos.session.SessionPatch;

/** Appends the decomposer's plan as the next plan version; a plan without steps is refused, nothing is written. */
public class PlanWriter implements StepWriter {

    @Override
    public SessionPatch patch(StepCall call) {
        Plan plan = (Plan) call.result();
        if (plan == null || plan.steps().isEmpty()) {
            throw new ModelAnswerException("decompose-plan", "a plan with at least one step");
        }
        return SessionPatch.builder().addPlan(plan.content(), null, null)
                .stepPointer(TaskStep.PLAN_DRAFTED.ordinal(), TaskStep.PLAN_DRAFTED.label()).build();
    }
}
