package dev.mnemos.injection;

/**
 * The session store could not be read before the step, so the model was not called: a step
 * without its memory would answer as if the task had just begun.
 */
public class SessionMemoryUnavailableException extends RuntimeException {

    private final String sessionId;

    public SessionMemoryUnavailableException(String sessionId, Throwable cause) {
        this(sessionId, "session memory for " + sessionId + " is unavailable (Redis: " + cause + "); the model was not called",
                cause);
    }

    private SessionMemoryUnavailableException(String sessionId, String message, Throwable cause) {
        super(message, cause);
        this.sessionId = sessionId;
    }

    /**
     * A first call could not tell whether its session ended before (the archive of ended sessions, in Postgres, could
     * not be read), so it started none and the model was not called.
     */
    public static SessionMemoryUnavailableException archive(String sessionId, Throwable cause) {
        return new SessionMemoryUnavailableException(sessionId, "session " + sessionId + " was not started: the archive"
                + " of ended sessions (Postgres) could not be read to tell whether it ended before (" + cause
                + "); the model was not called", cause);
    }

    public String sessionId() {
        return sessionId;
    }
}
