package dev.mnemos.promotion;

/** What happens to a candidate at task end. */
public enum Verdict {
    PROMOTE,
    PENDING,
    REJECT
}
