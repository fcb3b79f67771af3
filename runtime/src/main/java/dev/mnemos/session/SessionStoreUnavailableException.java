package dev.mnemos.session;

/** Redis could not be reached or did not answer in time; nothing can be said about the write. */
public class SessionStoreUnavailableException extends RuntimeException {

    public SessionStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Runs a Redis call: Redis failures become this exception; Mnemos' own outcomes pass through. */
    static <T> T guard(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (SessionNotFoundException | StaleVersionException | InvalidPatchException | SessionEndedException
                | VersionGoneException | VersionNotFoundException | IllegalStateException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SessionStoreUnavailableException("Redis did not answer: " + e.getMessage(), e);
        }
    }
}
