package dev.mnemos.session;

/** The user already has the most live sessions allowed; nothing was written. */
public class TooManySessionsException extends RuntimeException {

    private final int max;

    public TooManySessionsException(String userId, int max) {
        super("user '" + userId + "' already has " + max + " live sessions, the most allowed;"
                + " end or delete one before starting another");
        this.max = max;
    }

    public int max() {
        return max;
    }
}
