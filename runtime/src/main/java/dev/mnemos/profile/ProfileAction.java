package dev.mnemos.profile;

/**
 * The audit trail's verbs. PENDING records a promotion candidate left for the user to confirm,
 * REJECT one that was not promoted (or a rejected new fact), each with its reason. Undoing a session's
 * promotion writes UNDO (the undo itself, and an evidence count put back), RETRACT (a fact the session promoted,
 * no longer served) and RESTORE (a fact it superseded or removed, served again).
 */
public enum ProfileAction {
    ADD,
    UPDATE,
    DELETE,
    MERGE,
    FORGET,
    PROMOTE,
    PENDING,
    REJECT,
    UNDO,
    RETRACT,
    RESTORE
}
