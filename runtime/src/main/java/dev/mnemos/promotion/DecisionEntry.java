package dev.mnemos.promotion;

import dev.mnemos.profile.Category;
import dev.mnemos.session.Scope;

/**
 * One candidate's outcome in a promotion report. {@code candidateId} is the stored candidate (the
 * id to confirm or reject when PENDING); {@code observationId} is null for extracted facts.
 */
public record DecisionEntry(Long candidateId, String observationId, String text, String slot, Category category,
        Verdict verdict, Scope scope, double confidence, String reason) {
}
