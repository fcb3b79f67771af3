package dev.mnemos.injection;

/**
 * The session store could not be read before the step, so the model was not called: a step
 * without its memory would answer as if the task had just begun.
 */
public class SessionMemoryUnavailableException extends RuntimeException {

    private final String sessionId;

    public SessionMemoryUnavailableException(String sessionId, Throwable cause) {
        super("session memory for " + sessionId + " is unavailable; the model was not called", cause);
        this.sessionId = sessionId;
    }

    public String sessionId() {
        return sessionId;
    }
}
