package dev.mnemos.profile;

import jakarta.persistence.LockTimeoutException;
import jakarta.persistence.PessimisticLockException;
import org.hibernate.exception.JDBCConnectionException;
import org.hibernate.exception.LockAcquisitionException;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The one place that decides whether a database failure is transient (Postgres unreachable, starting
 * up, shutting down, a lost connection or commit, a serialization or deadlock failure, a lock or
 * statement timeout, an exhausted pool): such failures answer 503 with {@code Retry-After}, never 500.
 * Classified by SQL state anywhere in the cause chain, then by the driver's and pool's exception types.
 */
public final class PostgresFaults {

    /** SQL states of a server that cannot serve now but will: admin/crash shutdown, starting up, too many clients. */
    private static final Set<String> TRANSIENT_STATES = Set.of(
            "57P01", // admin_shutdown (pg_ctl stop -m fast)
            "57P02", // crash_shutdown (pg_ctl stop -m immediate, another backend crashed)
            "57P03", // cannot_connect_now ("the database system is starting up / shutting down")
            "57P05", // idle_session_timeout
            "40001", // serialization_failure
            "40P01", // deadlock_detected
            "55P03", // lock_not_available (lock_timeout)
            "57014", // query_canceled (statement_timeout)
            "53300", // too_many_connections
            "53400"); // configuration_limit_exceeded

    private PostgresFaults() {
    }

    /** True when {@code failure} or one of its causes is a transient database failure. */
    public static boolean isTransient(Throwable failure) {
        return reason(failure).isPresent();
    }

    /**
     * The first transient cause, described for logs; empty when the failure is not transient. Causes and
     * suppressed exceptions are followed to any depth: a failed commit arrives as a rollback exception
     * whose suppressed {@code XAException} holds the driver's error as its cause.
     */
    public static Optional<String> reason(Throwable failure) {
        return reason(failure, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static Optional<String> reason(Throwable t, Set<Throwable> seen) {
        if (t == null || seen.size() > 256 || !seen.add(t)) {
            return Optional.empty();
        }
        Optional<String> found = classify(t);
        if (found.isPresent()) {
            return found;
        }
        found = reason(t.getCause(), seen);
        for (Throwable suppressed : t.getSuppressed()) {
            if (found.isPresent()) {
                break;
            }
            found = reason(suppressed, seen);
        }
        return found;
    }

    private static Optional<String> classify(Throwable t) {
        if (t instanceof SQLException sql) {
            String state = sql.getSQLState();
            if (state != null && (state.startsWith("08") || TRANSIENT_STATES.contains(state))) {
                return Optional.of("SQL state " + state);
            }
            if (t instanceof SQLTransientException || t instanceof SQLRecoverableException) {
                return Optional.of(t.getClass().getSimpleName());
            }
            if (acquisitionTimeout(sql)) {
                return Optional.of("connection pool exhausted");
            }
        }
        if (t instanceof PessimisticLockException || t instanceof LockTimeoutException
                || t instanceof JDBCConnectionException
                || t instanceof LockAcquisitionException
                || t instanceof org.hibernate.PessimisticLockException) {
            return Optional.of(t.getClass().getSimpleName());
        }
        return Optional.empty();
    }

    /** Agroal reports an exhausted pool as an SQLException without SQL state: "Acquisition timeout while waiting …". */
    private static boolean acquisitionTimeout(SQLException sql) {
        return String.valueOf(sql.getMessage()).toLowerCase(Locale.ROOT).contains("acquisition timeout");
    }
}
