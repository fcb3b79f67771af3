package dev.mnemos.agent;

import dev.langchain4j.agentic.scope.AgenticScope;
import dev.mnemos.injection.agentic.AgentSteps;
import dev.mnemos.session.SessionState;

import java.util.Optional;

/**
 * What one call of {@link PlanningLoop} works on: the session as its last step left it (rebuilt from what each step
 * wrote, {@link AfterStep}: the turn reads the session once, before its first step), the user's remarks for the first
 * rewrite, and when to stop. One per call, used on the workflow's thread only.
 * <p>
 * A step that could not be read or written stops the loop: the next brief (or the exit test) throws that step's failure
 * ({@link AgentSteps#failure}), so no agent runs on a session its previous step did not reach.
 */
public final class PlanningRounds {

    private final AfterStep afterStep;
    private final Language language;
    private final int maxRounds;
    private final double targetScore;
    private String remarks;
    private SessionState state;
    /** Whether an agent step may have written since {@link #state} was brought up to date. */
    private boolean stepped;
    private RuntimeException failure;
    private int rounds;

    /**
     * @param state the session before the first step
     * @param remarks the user's remarks for the first plan version, or null
     * @param maxRounds at most this many plan versions (each one evaluated)
     */
    PlanningRounds(AfterStep afterStep, SessionState state, String remarks, Language language, int maxRounds,
            double targetScore) {
        this.afterStep = afterStep;
        this.state = state;
        this.remarks = remarks;
        this.language = language;
        this.maxRounds = maxRounds;
        this.targetScore = targetScore;
    }

    /** The session after the last step. */
    public SessionState state() {
        return state;
    }

    /** The step failure that stopped the loop, when one did. */
    public Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure);
    }

    String planBrief(AgenticScope scope) {
        SessionState s = current(scope);
        int version = s.latestPlan() == null ? 1 : s.latestPlan().version() + 1;
        String brief = Briefs.decomposition(s, version, remarks, language);
        remarks = null;
        stepped = true;
        return brief;
    }

    String evaluationBrief(AgenticScope scope) {
        SessionState s = current(scope);
        stepped = true;
        return Briefs.evaluation(s, s.latestPlan(), language);
    }

    /** Whether the loop ends after the round that just ran. */
    boolean done(AgenticScope scope) {
        SessionState s = current(scope);
        return ++rounds >= maxRounds || s.latestPlan().score() >= targetScore;
    }

    /** @throws RuntimeException the failure of the last step, when it was not written */
    private SessionState current(AgenticScope scope) {
        AgentSteps.failure(scope).ifPresent(e -> {
            failure = e;
            throw e;
        });
        if (stepped) {
            state = afterStep.of(state);
            stepped = false;
        }
        return state;
    }
}
