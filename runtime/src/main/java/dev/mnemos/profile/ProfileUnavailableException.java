package dev.mnemos.profile;

import java.sql.SQLException;
import java.sql.SQLTransientException;

/** Postgres could not be reached, or the user's profile stayed locked too long; nothing was written. */
public class ProfileUnavailableException extends RuntimeException {

    public ProfileUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Runs {@code work}, turning a transient database failure into a ProfileUnavailableException;
     * other failures pass unchanged.
     */
    public static <T> T guard(java.util.function.Supplier<T> work) {
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
     * True when {@code failure} means the database is unreachable or busy rather than a bug:
     * connection errors (SQL state 08…), lock or statement timeouts (55P03, 57014), pool exhaustion.
     */
    public static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientException || t instanceof jakarta.persistence.PessimisticLockException
                    || t instanceof jakarta.persistence.LockTimeoutException
                    || t instanceof org.hibernate.exception.JDBCConnectionException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().equals("55P03")
                            || sql.getSQLState().equals("57014") || sql.getSQLState().equals("40001")
                            || sql.getSQLState().equals("40P01"))) {
                return true;
            }
            if (t instanceof SQLException sql && String.valueOf(sql.getMessage()).contains("acquisition timeout")) {
                return true;
            }
        }
        return false;
    }
}
