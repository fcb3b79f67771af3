package dev.mnemos.promotion;

/** Where a stored promotion candidate stands. */
public enum CandidateStatus {
    PENDING,
    PROMOTED,
    CONFIRMED,
    REJECTED
}
