package dev.mnemos.promotion;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.mnemos.profile.Change;

import java.time.Instant;
import java.util.List;

/**
 * What ending a session did: each candidate promoted, left pending or rejected with its reason,
 * and the profile changes the promotions made (PROMOTE, UPDATE on a superseded slot, MERGE …).
 * {@code notice} is set only when the application has no profile layer (session memory only): it says
 * that nothing was promoted or archived and what became of the session's keys.
 */
public record PromotionReport(String sessionId, String userId, Instant endedAt, List<DecisionEntry> promoted,
        List<DecisionEntry> pending, List<DecisionEntry> rejected, List<Change> profileChanges,
        @JsonInclude(JsonInclude.Include.NON_NULL) String notice) {

    public PromotionReport {
        promoted = List.copyOf(promoted);
        pending = List.copyOf(pending);
        rejected = List.copyOf(rejected);
        profileChanges = List.copyOf(profileChanges);
    }

    /** The report of a session ended through the profile layer. */
    public PromotionReport(String sessionId, String userId, Instant endedAt, List<DecisionEntry> promoted,
            List<DecisionEntry> pending, List<DecisionEntry> rejected, List<Change> profileChanges) {
        this(sessionId, userId, endedAt, promoted, pending, rejected, profileChanges, null);
    }
}
