package dev.mnemos.agent;

import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Requirement analysis as a session step: the analyst's {@code @SessionMemory} call injects the
 * memory and {@link RequirementsWriter} writes the goal, constraints, observations, question and
 * step pointer back.
 */
@ApplicationScoped
public class RequirementStep {

    private final RequirementAnalyst analyst;
    private final AfterStep afterStep;

    public RequirementStep(RequirementAnalyst analyst, AfterStep afterStep) {
        this.analyst = analyst;
        this.afterStep = afterStep;
    }

    /** The session after the step, and what the analyst found. */
    public record Result(SessionState state, Requirements requirements) {
    }

    public Result run(Turn turn) {
        SessionState s = turn.state();
        Requirements req = analyst.analyze(s.sessionId(), Briefs.analysis(s, turn.message(), turn.language()));
        return new Result(afterStep.of(s), req);
    }
}
