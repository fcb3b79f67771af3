package dev.mnemos.profile;

import java.time.Instant;

/**
 * An ACTIVE profile fact as read for prompt injection and the API; immutable. {@code slot} and
 * {@code taskState} may be null (no slot; the fact records no task).
 */
public record ActiveFact(long id, Category category, String slot, String text, double confidence,
        Instant updatedAt, TaskState taskState) {
}
