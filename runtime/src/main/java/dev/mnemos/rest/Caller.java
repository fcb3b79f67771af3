package dev.mnemos.rest;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.NotFoundException;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * The authenticated caller. The user always comes from the token's subject; a token with the
 * {@code service} role may act for another user. Anything else that touches another user's data
 * answers 404, so existence is never revealed.
 */
@RequestScoped
public class Caller {

    public static final String SERVICE_ROLE = "service";

    private final SecurityIdentity identity;

    public Caller(SecurityIdentity identity) {
        this.identity = identity;
    }

    /**
     * The user id: the token's {@code sub} claim. Not {@code getName()}, which smallrye-jwt takes from
     * {@code upn} or {@code preferred_username} first, claims a user may be able to choose.
     */
    public String userId() {
        if (identity.getPrincipal() instanceof JsonWebToken jwt && jwt.getSubject() != null) {
            return jwt.getSubject();
        }
        return identity.getPrincipal().getName();
    }

    public boolean isService() {
        return identity.hasRole(SERVICE_ROLE);
    }

    /** The user the caller may act for, given a user named in the path; 404 when it may not. */
    public String actFor(String pathUserId) {
        if (pathUserId == null || pathUserId.isBlank()) {
            throw new InvalidRequestException("userId", "a non-blank user id in the path");
        }
        if (pathUserId.equals(userId()) || isService()) {
            return pathUserId;
        }
        throw new NotFoundException();
    }

    /** Fails with 404 unless the caller owns data of {@code ownerUserId} or is a service. */
    public void requireAccess(String ownerUserId) {
        if (!isService() && !userId().equals(ownerUserId)) {
            throw new NotFoundException();
        }
    }
}
