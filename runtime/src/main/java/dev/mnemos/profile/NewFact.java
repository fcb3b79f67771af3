package dev.mnemos.profile;

/**
 * A fact as a caller states it. {@code category} and {@code slot} may be null (detected from the
 * text where a slot rule matches, else FACT without a slot); {@code confidence} may be null
 * (the configured confidence of direct writes); {@code taskState} is null unless the fact records a
 * task — a closed state (DONE, DROPPED) of a fact it replaces is kept.
 */
public record NewFact(Category category, String slot, String text, Double confidence, TaskState taskState) {

    public NewFact(Category category, String slot, String text, Double confidence) {
        this(category, slot, text, confidence, null);
    }
}
