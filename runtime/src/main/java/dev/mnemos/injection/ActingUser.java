package dev.mnemos.injection;

import java.util.Optional;

/** The end user on whose behalf the current call runs. */
public interface ActingUser {

    /**
     * Who the current call acts for: an {@link ActingAs} scope of this thread, else the request's identity.
     *
     * @throws ActingUserUnknownException when the application authenticates its callers and neither names one
     */
    Actor actor();

    /** The user id the call may touch, or empty when the caller may act for any user (a service, the system actor). */
    default Optional<String> restrictedTo() {
        return actor().restrictedTo();
    }

    /**
     * Who a call acts for.
     *
     * @param restrictedTo the only user whose sessions the call may read and write, or empty for any user
     * @param owner the owner of a session the call's first step starts, or empty when it may not start one (the
     *        {@linkplain ActingAs#system system} actor)
     */
    record Actor(Optional<String> restrictedTo, Optional<String> owner) {

        /** A call restricted to {@code userId}, which owns the sessions it starts. */
        public static Actor user(String userId) {
            return new Actor(Optional.of(userId), Optional.of(userId));
        }

        /** A call that may reach every user's sessions and starts sessions owned by {@code owner}. */
        public static Actor unrestricted(String owner) {
            return new Actor(Optional.empty(), Optional.of(owner));
        }
    }
}
