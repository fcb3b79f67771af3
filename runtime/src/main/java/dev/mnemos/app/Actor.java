package dev.mnemos.app;

import dev.mnemos.session.SessionIds;
import io.quarkus.security.identity.SecurityIdentity;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Who a call is for and who makes it, as a transport authenticated them: {@code user} owns the data touched
 * (the caller, or the user a service token acts for), {@code actor} is named in the audit trail and the
 * replay log. Both are user ids the transport has already checked.
 */
public record Actor(String user, String actor) {

    /** The field a subject that is no user id is refused under. */
    public static final String SUBJECT = "sub";

    /**
     * The user an authenticated identity is: the token's {@code sub} claim. Not {@code getName()}, which smallrye-jwt
     * takes from {@code upn} or {@code preferred_username} first, claims a user may be able to choose.
     *
     * @throws dev.mnemos.session.InvalidPatchException (naming {@code sub}) unless the subject follows
     *         {@link SessionIds#USER_GRAMMAR}: every transport accepts and refuses the same subjects
     */
    public static String userOf(SecurityIdentity identity) {
        String subject = identity.getPrincipal() instanceof JsonWebToken jwt && jwt.getSubject() != null
                ? jwt.getSubject()
                : identity.getPrincipal().getName();
        return SessionIds.requireUser(SUBJECT, subject);
    }

    /** A user acting for themselves. */
    public static Actor self(String user) {
        return new Actor(user, user);
    }
}
