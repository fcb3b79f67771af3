package dev.mnemos.session;

/** A compare-and-set lost: the session is no longer at the version the writer read. */
public class StaleVersionException extends RuntimeException {

    private final String sessionId;
    private final long expected;
    private final long actual;

    public StaleVersionException(String sessionId, long expected, long actual) {
        super("session " + sessionId + " is at version " + actual + ", not " + expected);
        this.sessionId = sessionId;
        this.expected = expected;
        this.actual = actual;
    }

    public String sessionId() {
        return sessionId;
    }

    public long expected() {
        return expected;
    }

    public long actual() {
        return actual;
    }
}
