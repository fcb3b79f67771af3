package dev.mnemos.promotion;

import dev.mnemos.profile.Change;

import java.time.Instant;
import java.util.List;

/**
 * What ending a session did: each candidate promoted, left pending or rejected with its reason,
 * and the profile changes the promotions made (PROMOTE, UPDATE on a superseded slot, MERGE …).
 */
public record PromotionReport(String sessionId, String userId, Instant endedAt, List<DecisionEntry> promoted,
        List<DecisionEntry> pending, List<DecisionEntry> rejected, List<Change> profileChanges) {

    public PromotionReport {
        promoted = List.copyOf(promoted);
        pending = List.copyOf(pending);
        rejected = List.copyOf(rejected);
        profileChanges = List.copyOf(profileChanges);
    }
}
