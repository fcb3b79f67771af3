package dev.mnemos.profile;

import java.util.function.Supplier;

/**
 * Postgres could not be reached or failed transiently ({@link PostgresFaults}), or the user's profile stayed locked
 * too long: the operation was not completed (a write cut off during its commit may still have been applied).
 */
public class ProfileUnavailableException extends RuntimeException {

    public ProfileUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Runs {@code work}, turning a transient database failure into a ProfileUnavailableException;
     * other failures pass unchanged.
     */
    public static <T> T guard(Supplier<T> work) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            if (e instanceof ProfileUnavailableException || !isTransient(e)) {
                throw e;
            }
            throw new ProfileUnavailableException("the profile store is unavailable", e);
        }
    }

    /**
     * True when {@code failure} means the database is unreachable or busy rather than a bug; see
     * {@link PostgresFaults}.
     */
    public static boolean isTransient(Throwable failure) {
        return PostgresFaults.isTransient(failure);
    }
}
