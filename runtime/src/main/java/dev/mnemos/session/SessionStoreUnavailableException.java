package dev.mnemos.session;

/**
 * Redis could not be reached or failed the call. {@link #outcomeUnknown()} tells whether a write
 * may have been applied: only a refused connection proves the command was never sent.
 */
public class SessionStoreUnavailableException extends RuntimeException {

    private final boolean outcomeUnknown;

    public SessionStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
        this.outcomeUnknown = !neverSent(cause);
    }

    /** A failure whose outcome the caller knows: {@code outcomeUnknown} false when the command was never sent. */
    public SessionStoreUnavailableException(String message, Throwable cause, boolean outcomeUnknown) {
        super(message, cause);
        this.outcomeUnknown = outcomeUnknown;
    }

    /** False only when Redis certainly never received the command (the connection was refused). */
    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }

    private static boolean neverSent(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.ConnectException) {
                return true;
            }
        }
        return false;
    }

    /** Runs a Redis call: Redis failures become this exception; Mnemos' own outcomes pass through. */
    static <T> T guard(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (SessionNotFoundException | StaleVersionException | InvalidPatchException | SessionEndedException
                | VersionGoneException | VersionNotFoundException | IllegalStateException
                | IdempotencyKeyReusedException | TooManySessionsException | SessionStoreUnavailableException
                | SessionTooLargeException | UserBytesExceededException
                | org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SessionStoreUnavailableException("Redis did not answer: " + e.getMessage(), e);
        }
    }
}
