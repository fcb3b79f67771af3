package dev.mnemos.rest;

import dev.mnemos.app.Actor;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.NotFoundException;

/**
 * The authenticated caller. The user always comes from the token's subject; a token with the
 * {@code service} role may act for another user, but only through paths that name that user
 * ({@code /v1/users/{userId}/…}). Anything else that touches another user's data answers 404, a session
 * exactly as a missing one, so existence is never revealed.
 */
@RequestScoped
public class Caller {

    public static final String SERVICE_ROLE = "service";
    /** The role of a token that may run the store's maintenance ({@code /v1/encryption}): no user's data is read. */
    public static final String OPERATOR_ROLE = "operator";
    /** The field a subject that is no user id is refused under. */
    public static final String SUBJECT = Actor.SUBJECT;

    private final SecurityIdentity identity;
    /** The user named by a {@code /v1/users/{userId}/sessions/{id}/…} path ({@link UserPathRewrite}); null otherwise. */
    private String pathUser;

    public Caller(SecurityIdentity identity) {
        this.identity = identity;
    }

    /**
     * The user id: the token's subject ({@link Actor#userOf}); a token without one never gets this far
     * ({@link SubjectRequired}).
     */
    public String userId() {
        return Actor.userOf(identity);
    }

    public boolean isService() {
        return identity.hasRole(SERVICE_ROLE);
    }

    /**
     * The user the caller may act for, given a user named in the path: 400 naming {@code userId} unless it
     * follows {@link SessionIds#USER_GRAMMAR}; 404 unless it is the caller or the caller is a service.
     */
    public String actFor(String pathUserId) {
        SessionIds.requireUser("userId", pathUserId);
        if (pathUserId.equals(userId()) || isService()) {
            return pathUserId;
        }
        throw new NotFoundException();
    }

    /** Called for a {@code /v1/users/{userId}/sessions/{id}/…} path: session checks use that user from now on. */
    void actOnSessionsOf(String pathUserId) {
        this.pathUser = actFor(pathUserId);
    }

    /** Whose sessions this request may touch: the user named in the path, else the token's subject (also for a service). */
    public String sessionUser() {
        return pathUser != null ? pathUser : userId();
    }

    /** Fails with 404 unless the caller may act for {@code ownerUserId}, as {@link #sessionUser()}. */
    public void requireAccess(String ownerUserId) {
        if (!sessionUser().equals(ownerUserId)) {
            throw new NotFoundException();
        }
    }

    /**
     * Fails exactly as a missing session would ({@link SessionNotFoundException}) unless the session is
     * {@link #sessionUser()}'s.
     */
    public void requireSession(String sessionId, String ownerUserId) {
        if (!sessionUser().equals(ownerUserId)) {
            throw new SessionNotFoundException(sessionId);
        }
    }
}
