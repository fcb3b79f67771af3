package dev.mnemos.session;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The structured state of one task at one version. Lists keep insertion order; {@code collected}
 * is ordered by key. Collections are never null. {@code forkedFrom} is null unless the session is a fork.
 */
public record SessionState(
        String sessionId,
        String userId,
        long version,
        Instant createdAt,
        Instant updatedAt,
        Status status,
        String goal,
        String context,
        List<Constraint> constraints,
        List<String> openQuestions,
        Map<String, String> collected,
        StepPointer stepPointer,
        List<PlanVersion> plans,
        List<Observation> observations,
        String summary,
        ForkOrigin forkedFrom) {

    @Schema(name = "SessionStatus")
    public enum Status {
        ACTIVE,
        ENDED
    }

    public SessionState {
        constraints = List.copyOf(constraints);
        openQuestions = List.copyOf(openQuestions);
        plans = List.copyOf(plans);
        observations = List.copyOf(observations);
        collected = Collections.unmodifiableSortedMap(new TreeMap<>(collected));
    }

    /** The same state with only its newest {@code count} plan versions; all of them when {@code count} is negative. */
    public SessionState newestPlans(int count) {
        if (count < 0 || plans.size() <= count) {
            return this;
        }
        return new SessionState(sessionId, userId, version, createdAt, updatedAt, status, goal, context, constraints,
                openQuestions, collected, stepPointer, plans.subList(plans.size() - count, plans.size()), observations,
                summary, forkedFrom);
    }

    /** The same state with {@code replaced} as its plan versions. */
    SessionState withPlans(List<PlanVersion> replaced) {
        return new SessionState(sessionId, userId, version, createdAt, updatedAt, status, goal, context, constraints,
                openQuestions, collected, stepPointer, replaced, observations, summary, forkedFrom);
    }

    /** The newest plan version, or null when no plan exists yet. */
    public PlanVersion latestPlan() {
        return plans.isEmpty() ? null : plans.get(plans.size() - 1);
    }
}
