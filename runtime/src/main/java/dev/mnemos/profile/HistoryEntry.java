package dev.mnemos.profile;

import java.time.Instant;

/** One audit event as served to callers. */
public record HistoryEntry(long id, Long factId, ProfileAction action, String before, String after, String reason,
        String actor, String sessionId, Instant at) {
}
