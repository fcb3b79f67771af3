package dev.mnemos.profile;

import java.time.Instant;
import java.util.List;

/**
 * How a user's profile changed from {@code from} to {@code to}: the facts removed and added (a correction is both),
 * and the audit events in between, oldest first — at most {@link ProfileTimeline#MAX_EVENTS}, {@code moreEvents}
 * when there were more.
 */
public record ProfileDiff(String userId, Instant from, Instant to, List<FactChange> changes, List<HistoryEntry> events,
        boolean moreEvents) {
}
