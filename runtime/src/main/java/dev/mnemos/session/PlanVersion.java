package dev.mnemos.session;

import java.time.Instant;

/**
 * One version of the plan. The evaluation ({@code score}, {@code feedback}) is kept apart from the
 * plan text and is null until the plan has been evaluated.
 */
public record PlanVersion(int version, String content, Double score, String feedback, Instant createdAt) {

    PlanVersion evaluated(Double newScore, String newFeedback) {
        return new PlanVersion(version, content, newScore, newFeedback, createdAt);
    }

    /** The same version with {@code text} as its content (null: stored elsewhere, as a plan body). */
    PlanVersion withContent(String text) {
        return new PlanVersion(version, text, score, feedback, createdAt);
    }
}
