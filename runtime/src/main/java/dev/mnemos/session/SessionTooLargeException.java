package dev.mnemos.session;

/**
 * A write would take the session's state past {@link SessionConfig#maxSessionBytes()}; nothing was
 * written.
 */
public class SessionTooLargeException extends RuntimeException {

    private final long bytes;
    private final long max;

    public SessionTooLargeException(String sessionId, long bytes, long max) {
        super("the write would make session '" + sessionId + "' " + bytes + " bytes, over the most allowed ("
                + max + ", quarkus.mnemos.session.max-session-bytes)");
        this.bytes = bytes;
        this.max = max;
    }

    /** What the state would have taken, in bytes of field names and values. */
    public long bytes() {
        return bytes;
    }

    public long max() {
        return max;
    }
}
