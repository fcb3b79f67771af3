package dev.mnemos.injection;

import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;

/**
 * What the {@link DefaultStepWriter} takes from a step's user message besides the answer: the task's goal,
 * constraints, observations and open questions. A port: Mnemos' implementation ({@code dev.mnemos.capture.TurnCapture})
 * reads the message with promotion's clause reading; {@link #NONE} when capture is off.
 */
@FunctionalInterface
public interface StepCapture {

    /** Captures nothing. */
    StepCapture NONE = (state, message, answer, patch) -> patch;

    /**
     * Adds what {@code message} (the user's, may be null) and {@code answer} (the model's text, may be null) tell the
     * task at {@code state} to {@code patch}. Pure: called again on a re-read state after a lost compare-and-set.
     */
    SessionPatch.Builder capture(SessionState state, String message, String answer, SessionPatch.Builder patch);
}
