package dev.mnemos.promotion;

import dev.mnemos.profile.ProfileUnavailableException;

/**
 * Postgres failed after a session was marked ended and before its promotion and archive were committed: the session
 * is ENDED in Redis (its writes are refused) but not archived, until the end is asked for again, which completes it.
 */
public class EndIncompleteException extends ProfileUnavailableException {

    private final String sessionId;

    public EndIncompleteException(String sessionId, Throwable cause) {
        super("Postgres failed while session " + sessionId + " was being ended; it is ended but not archived yet", cause);
        this.sessionId = sessionId;
    }

    public String sessionId() {
        return sessionId;
    }
}
