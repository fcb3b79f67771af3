package dev.mnemos.injection;

import java.util.Optional;

/** The end user on whose behalf the current call runs, when it is restricted to one. */
public interface ActingUser {

    /** The user id the call may touch, or empty when the caller may act for any user (a service, a batch job). */
    Optional<String> restrictedTo();

    /**
     * The authenticated caller's user id whatever its roles (a service too), or empty outside a
     * request and for anonymous callers: the owner of a session its first call starts.
     */
    default Optional<String> authenticated() {
        return restrictedTo();
    }
}
