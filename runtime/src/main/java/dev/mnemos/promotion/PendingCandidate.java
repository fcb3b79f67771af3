package dev.mnemos.promotion;

import dev.mnemos.profile.Category;

import java.time.Instant;

/** A promotion candidate as served by {@code GET /v1/profile/pending}. */
public record PendingCandidate(long id, String sessionId, String text, String slot, Category category,
        double confidence, CandidateStatus status, String reason, Instant createdAt) {
}
