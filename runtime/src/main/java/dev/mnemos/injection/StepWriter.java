package dev.mnemos.injection;

import dev.mnemos.session.SessionPatch;

/**
 * Decides what a {@link SessionMemory} step writes back. Called after the model answered, and again
 * with the re-read state when the first compare-and-set lost, so it must be free of side effects.
 */
@FunctionalInterface
public interface StepWriter {

    /** The patch for this step; an empty patch writes nothing but the step pointer. */
    SessionPatch patch(StepCall call);
}
