package dev.mnemos.session;

/** Redis could not be reached or did not answer in time; nothing can be said about the write. */
public class SessionStoreUnavailableException extends RuntimeException {

    public SessionStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
