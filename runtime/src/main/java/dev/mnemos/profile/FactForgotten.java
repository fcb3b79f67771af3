package dev.mnemos.profile;

/**
 * Fired synchronously, inside the forgetting transaction, for every fact whose text is removed, so
 * other features can remove copies of {@code text} they keep (promotion candidates, for example).
 */
public record FactForgotten(String userId, long factId, String slot, String text) {
}
