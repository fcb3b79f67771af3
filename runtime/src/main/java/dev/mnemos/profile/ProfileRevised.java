package dev.mnemos.profile;

/** A profile write bumped {@code userId}'s revision to {@code revision} (fired inside its transaction). */
public record ProfileRevised(String userId, long revision) {
}
