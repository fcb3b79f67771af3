package dev.mnemos.agent;

import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Decomposition and evaluation as session steps, run by the {@link PlanningLoop} workflow. A plan version is written
 * first ({@link PlanWriter}); its score and feedback by a second step ({@link EvaluationWriter}), apart from the plan
 * text.
 */
@ApplicationScoped
public class PlanningStep {

    private final PlanningLoop loop;
    private final AfterStep afterStep;
    private final AgentConfig config;

    public PlanningStep(PlanningLoop loop, AfterStep afterStep, AgentConfig config) {
        this.loop = loop;
        this.afterStep = afterStep;
        this.config = config;
    }

    /**
     * Writes the next plan version (a rewrite of the newest one when there is one) and evaluates it, again while its
     * score is below {@link AgentConfig#targetScore()}, at most {@code maxRounds} versions in all.
     *
     * @param remarks the user's remarks for the first version, or null
     * @return the session after the last step
     */
    public SessionState plan(SessionState s, String remarks, Language lang, int maxRounds) {
        PlanningRounds rounds = new PlanningRounds(afterStep, s, remarks, lang, maxRounds, config.targetScore());
        try {
            loop.plan(s.sessionId(), rounds);
        } catch (RuntimeException e) {
            // a step that was not written stops the loop from within; its own failure is the turn's
            throw rounds.failure().orElse(e);
        }
        return rounds.state();
    }
}
