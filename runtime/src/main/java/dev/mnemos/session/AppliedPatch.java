package dev.mnemos.session;

import java.time.Instant;
import java.util.Optional;

/**
 * What a write stored: the version it produced, the patch as written (generated ids filled in) and
 * its time. A caller that holds the state the write was based on (version {@code version - 1})
 * rebuilds the new state from it without reading the session again.
 *
 * @param at the write's time, or null when the store does not report it (then nothing can be rebuilt)
 */
public record AppliedPatch(long version, SessionPatch patch, Instant at) {

    /** The state this write produced, given the state it was based on; empty when {@code basis} is another version. */
    public Optional<SessionState> applyTo(SessionState basis) {
        if (at == null || basis.version() != version - 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(patch.applyTo(basis, version, at));
        } catch (InvalidPatchException e) {
            // evaluates a plan older than the ones the basis holds
            return Optional.empty();
        }
    }
}
