package dev.mnemos.profile;

import java.time.Instant;

/**
 * A fact as the profile held it at an instant: {@code validFrom} / {@code validTo} bound the period of its validity
 * that holds the instant ({@code validTo} null: still valid), {@code madeBy} is the audit event that started that
 * period (which session or call made it).
 */
public record FactAt(long id, Category category, String slot, String text, double confidence, TaskState taskState,
        Instant validFrom, Instant validTo, HistoryEntry madeBy) {
}
