package dev.mnemos.profile;

/**
 * Fired synchronously, inside the forgetting transaction, for every fact whose text is removed, so
 * other features can remove copies of {@code text} they keep (promotion candidates, archives, live
 * sessions). {@code factId} is null for a text the profile never held as a fact (a promotion
 * candidate's, forgotten by a "forget …" instruction).
 */
public record FactForgotten(String userId, Long factId, String slot, String text) {
}
