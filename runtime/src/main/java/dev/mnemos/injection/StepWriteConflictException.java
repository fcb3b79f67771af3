package dev.mnemos.injection;

/**
 * The step's write-back kept losing its compare-and-set to concurrent writers; nothing of this
 * step was written, and nothing of theirs was overwritten.
 */
public class StepWriteConflictException extends RuntimeException {

    private final String sessionId;
    private final long readVersion;
    private final int attempts;

    public StepWriteConflictException(String sessionId, long readVersion, int attempts) {
        super("step of session " + sessionId + " read at version " + readVersion + " lost " + attempts
                + " compare-and-set attempts to concurrent writers; it was not written");
        this.sessionId = sessionId;
        this.readVersion = readVersion;
        this.attempts = attempts;
    }

    public String sessionId() {
        return sessionId;
    }

    public long readVersion() {
        return readVersion;
    }

    public int attempts() {
        return attempts;
    }
}
