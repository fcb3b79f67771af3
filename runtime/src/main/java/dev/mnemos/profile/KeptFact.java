package dev.mnemos.profile;

/**
 * A fact an undo did not revert, and why: the user forgot it (it stays forgotten), or a later change touched it
 * (what a refused undo names, and what a forced one leaves as the later change made it).
 */
public record KeptFact(long factId, String reason) {
}
