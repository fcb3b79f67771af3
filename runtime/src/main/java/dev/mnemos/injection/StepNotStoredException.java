package dev.mnemos.injection;

import dev.mnemos.session.ReplicaWaitException;

/**
 * The step could not be stored (Redis failed or did not answer in time): after the model answered, when the step's
 * write failed, or during the model call, when the session's chat window could not be read or written. The answer is
 * not in the session's memory, and the session is still at the version the step read. Calling again redoes the step.
 * Except {@link #unconfirmed}: the master wrote it, no replica confirmed it.
 */
public class StepNotStoredException extends RuntimeException {

    private final String sessionId;

    /** The model answered; the step's write failed. */
    public StepNotStoredException(String sessionId, long readVersion, Throwable cause) {
        this(sessionId, "the model answered, but the step of session " + sessionId + " was not stored (" + cause
                + "): its answer is not in the session's memory, which stays at version " + readVersion
                + "; call again to redo the step", cause);
    }

    private StepNotStoredException(String sessionId, String message, Throwable cause) {
        super(message, cause);
        this.sessionId = sessionId;
    }

    /** The session's chat window could not be read or written during the model call. */
    public static StepNotStoredException chatWindow(String sessionId, long readVersion, Throwable cause) {
        return new StepNotStoredException(sessionId, "the step of session " + sessionId + " was not stored: its chat"
                + " window in Redis could not be read or written during the model call (" + cause + "); the session"
                + " stays at version " + readVersion + "; call again to redo the step", cause);
    }

    /**
     * The step's write reached Redis' master but too few replicas confirmed it
     * ({@code quarkus.mnemos.session.replica-wait}): the step is in the session's memory unless that master fails over
     * before it replicates, so it is not reported as stored.
     */
    public static StepNotStoredException unconfirmed(String sessionId, ReplicaWaitException cause) {
        return new StepNotStoredException(sessionId, "the model answered, and the step of session " + sessionId
                + " was " + cause.getMessage() + "; read the session before calling again", cause);
    }

    public String sessionId() {
        return sessionId;
    }
}
