package dev.mnemos.profile;

/**
 * The audit trail's verbs. PENDING records a promotion candidate left for the user to confirm,
 * REJECT one that was not promoted (or a rejected new fact), each with its reason.
 */
public enum ProfileAction {
    ADD,
    UPDATE,
    DELETE,
    MERGE,
    FORGET,
    PROMOTE,
    PENDING,
    REJECT
}
