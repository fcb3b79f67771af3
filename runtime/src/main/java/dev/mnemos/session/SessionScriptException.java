package dev.mnemos.session;

/**
 * Redis ran a session script and answered with its error: a fault of the script or of the data it found (a key
 * of another type), not an outage. Redis answered, so it is not counted as one and retrying does not help; the
 * API answers 500. Redis keeps what a script wrote before it failed (Mnemos' scripts check before they write).
 */
public class SessionScriptException extends RuntimeException {

    /** Error replies that mean Redis is unavailable for the write, not that the script failed. */
    private static final String[] OUTAGES = { "OOM ", "READONLY", "LOADING", "MASTERDOWN", "BUSY", "MISCONF",
            "NOREPLICAS", "CLUSTERDOWN", "TRYAGAIN" };

    public SessionScriptException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * A Redis call's failure as the caller's exception: Redis' error reply to a script as this exception, anything
     * else as {@link SessionStoreUnavailableException} with {@code message}.
     */
    static RuntimeException of(String message, Throwable cause) {
        String error = scriptError(cause);
        return error != null ? new SessionScriptException("a session script failed in Redis: " + error, cause)
                : new SessionStoreUnavailableException(message, cause);
    }

    /**
     * Redis' error reply when {@code failure} (or a cause) is a script's own error: Redis 7 names the failing line
     * {@code user_script:<n>}, Redis 6 says {@code Error running script}. Null for any other failure.
     */
    static String scriptError(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && (message.contains("user_script:") || message.contains("Error running script"))) {
                for (String outage : OUTAGES) {
                    if (message.contains(outage)) {
                        return null;
                    }
                }
                return message;
            }
        }
        return null;
    }
}
