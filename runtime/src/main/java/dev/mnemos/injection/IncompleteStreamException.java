package dev.mnemos.injection;

/**
 * A streamed {@link SessionMemory} step's stream completed although the provider did not end it normally (a malformed
 * chunk, a stream closed without a finish reason): the partial answer was not written to the session.
 */
public class IncompleteStreamException extends RuntimeException {

    private final String sessionId;

    public IncompleteStreamException(String sessionId, String why) {
        super("the streamed answer of session " + sessionId + " is incomplete and was not stored: " + why);
        this.sessionId = sessionId;
    }

    public String sessionId() {
        return sessionId;
    }
}
