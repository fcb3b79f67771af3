package dev.mnemos.profile;

/** Where a fact came from. */
public enum SourceKind {
    USER_STATEMENT,
    INSTRUCTION,
    IMPORT,
    PROMOTION;

    /** Whether the user stated the fact themselves (added, corrected or instructed it). */
    public boolean statedByUser() {
        return this == USER_STATEMENT || this == INSTRUCTION;
    }
}
