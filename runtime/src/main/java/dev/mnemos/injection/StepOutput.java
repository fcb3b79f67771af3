package dev.mnemos.injection;

/** What a {@link SessionMemory} method's answer is. */
public enum StepOutput {
    /** An answer: stored under {@code collected["answer.<step>"]}. */
    TEXT,
    /** A plan: appended as the next plan version (and stored as the step's answer). */
    PLAN
}
