package dev.mnemos.rest;

import dev.mnemos.profile.PostgresFaults;
import jakarta.ws.rs.core.Response;

/**
 * {@link PostgresFaults} for the REST edge, usable in an application with session memory only: there Hibernate ORM
 * is not on the class path, so no failure can come from Postgres and {@code PostgresFaults} (which names Hibernate's
 * exceptions) is never loaded.
 */
final class ProfileStoreFaults {

    private static final boolean PROFILE_LAYER = onClassPath("org.hibernate.exception.JDBCConnectionException");

    private ProfileStoreFaults() {
    }

    /** Whether {@code failure} is a transient Postgres outage (always false without the profile layer). */
    static boolean isTransient(Throwable failure) {
        return PROFILE_LAYER && PostgresFaults.isTransient(failure);
    }

    /**
     * {@link ProfileProblemMappers#persistence}'s answer to a persistence failure, or null (always without the profile layer).
     */
    static Response persistence(RuntimeException e) {
        return PROFILE_LAYER ? ProfileProblemMappers.persistence(e) : null;
    }

    private static boolean onClassPath(String name) {
        try {
            Class.forName(name, false, ProfileStoreFaults.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
