package dev.mnemos.session;

/** The session has ended and takes no more writes. */
public class SessionEndedException extends RuntimeException {

    public SessionEndedException(String sessionId) {
        super("session " + sessionId + " has ended and takes no more writes");
    }
}
