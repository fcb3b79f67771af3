package dev.mnemos.profile;

import java.util.List;

/**
 * What a write did: the changes in order (empty when nothing changed), how it was decided, and
 * the user's active facts afterwards.
 */
public record WriteResult(List<Change> changes, Reconciler.Path path, List<ActiveFact> facts) {

    public WriteResult {
        changes = List.copyOf(changes);
        facts = List.copyOf(facts);
    }
}
