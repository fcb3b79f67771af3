package dev.mnemos.session;

/**
 * A create or fork came back with the Idempotency-Key of a session that has since ended: its id is
 * taken by the archive, so the request cannot start that session again; nothing was written.
 */
public class IdempotencyKeyEndedException extends RuntimeException {

    private final String key;
    private final String sessionId;

    public IdempotencyKeyEndedException(String key, String sessionId) {
        super("Idempotency-Key '" + key + "' created session " + sessionId + ", which has ended");
        this.key = key;
        this.sessionId = sessionId;
    }

    public String key() {
        return key;
    }

    public String sessionId() {
        return sessionId;
    }
}
