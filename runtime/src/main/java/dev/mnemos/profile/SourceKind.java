package dev.mnemos.profile;

/** Where a fact came from. */
public enum SourceKind {
    USER_STATEMENT,
    INSTRUCTION,
    IMPORT,
    PROMOTION,
    /** A promotion candidate the user confirmed ({@code POST /v1/profile/pending/{id}/confirm}). */
    CONFIRMED;

    /** Whether the user stated the fact themselves (added, corrected, instructed or confirmed it). */
    public boolean statedByUser() {
        return this == USER_STATEMENT || this == INSTRUCTION || this == CONFIRMED;
    }

    /**
     * Whether the fact is the user's own, which a session end never changes (it leaves its correction pending): the user
     * stated it ({@link #statedByUser()}) or brought it in through the profile API ({@link #IMPORT}).
     */
    public boolean ownedByUser() {
        return statedByUser() || this == IMPORT;
    }
}
