package dev.mnemos.promotion;

import dev.mnemos.profile.Change;

import java.util.List;

/** The outcome of confirming or rejecting a pending candidate: the candidate now, and the profile changes. */
public record PendingDecision(PendingCandidate candidate, List<Change> profileChanges) {

    public PendingDecision {
        profileChanges = List.copyOf(profileChanges);
    }
}
