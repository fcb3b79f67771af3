package dev.mnemos.agent;

import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Decomposition and evaluation as session steps. A plan version is written first; its score and
 * feedback are written by a second step, apart from the plan text.
 */
@ApplicationScoped
public class PlanningStep {

    private final PlanDecomposer decomposer;
    private final PlanEvaluator evaluator;
    private final SessionSteps steps;

    public PlanningStep(PlanDecomposer decomposer, PlanEvaluator evaluator, SessionSteps steps) {
        this.decomposer = decomposer;
        this.evaluator = evaluator;
        this.steps = steps;
    }

    /** Writes the next plan version; a rewrite of the newest one when there is one. */
    public SessionState draft(SessionState s, String remarks) {
        int version = s.latestPlan() == null ? 1 : s.latestPlan().version() + 1;
        Plan plan = decomposer.decompose(MemoryBlock.render(s), Briefs.decomposition(s, version, remarks));
        if (plan.steps().isEmpty()) {
            throw new ModelAnswerException("decompose-plan", "a plan with at least one step");
        }
        SessionPatch patch = SessionPatch.builder().addPlan(plan.content(), null, null)
                .stepPointer(TaskStep.PLAN_DRAFTED.ordinal(), TaskStep.PLAN_DRAFTED.label()).build();
        return steps.write(s, patch, "decompose-plan v" + version);
    }

    /** Scores the newest plan version and stores the score and feedback with it. */
    public SessionState evaluate(SessionState s) {
        PlanVersion plan = s.latestPlan();
        Evaluation evaluation = evaluator.evaluate(MemoryBlock.render(s), Briefs.evaluation(s, plan));
        SessionPatch patch = SessionPatch.builder().evaluatePlan(plan.version(), evaluation.score(), evaluation.feedback())
                .stepPointer(TaskStep.PLAN_EVALUATED.ordinal(), TaskStep.PLAN_EVALUATED.label()).build();
        return steps.write(s, patch, "evaluate-plan v" + plan.version());
    }
}
