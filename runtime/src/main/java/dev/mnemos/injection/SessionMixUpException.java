package dev.mnemos.injection;

/**
 * A write-back was about to land on a session other than the one loaded for the step, or for a
 * different user than the one acting; it was refused and nothing was written.
 */
public class SessionMixUpException extends RuntimeException {

    public SessionMixUpException(String detail) {
        super("step write-back refused: " + detail);
    }
}
