package dev.mnemos.agent;

import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Decomposition and evaluation as session steps. A plan version is written first
 * ({@link PlanWriter}); its score and feedback by a second step ({@link EvaluationWriter}), apart
 * from the plan text.
 */
@ApplicationScoped
public class PlanningStep {

    private final PlanDecomposer decomposer;
    private final PlanEvaluator evaluator;
    private final AfterStep afterStep;

    public PlanningStep(PlanDecomposer decomposer, PlanEvaluator evaluator, AfterStep afterStep) {
        this.decomposer = decomposer;
        this.evaluator = evaluator;
        this.afterStep = afterStep;
    }

    /** Writes the next plan version (a rewrite of the newest one when there is one); the session after it. */
    public SessionState draft(SessionState s, String remarks, Language lang) {
        int version = s.latestPlan() == null ? 1 : s.latestPlan().version() + 1;
        decomposer.decompose(s.sessionId(), Briefs.decomposition(s, version, remarks, lang));
        return afterStep.of(s);
    }

    /** Scores the newest plan version and stores the score and feedback with it; the session after it. */
    public SessionState evaluate(SessionState s, Language lang) {
        evaluator.evaluate(s.sessionId(), Briefs.evaluation(s, s.latestPlan(), lang));
        return afterStep.of(s);
    }
}
