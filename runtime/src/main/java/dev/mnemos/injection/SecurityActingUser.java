package dev.mnemos.injection;

import io.quarkus.arc.Arc;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.Optional;

/**
 * The authenticated principal of the current request (a JWT's subject, else the principal's name).
 * Calls outside a request, anonymous calls and callers with the {@code service} role (see
 * docs/http-api.md) are not restricted.
 */
@ApplicationScoped
public class SecurityActingUser implements ActingUser {

    static final String SERVICE_ROLE = "service";

    private final Instance<SecurityIdentity> identity;

    public SecurityActingUser(Instance<SecurityIdentity> identity) {
        this.identity = identity;
    }

    @Override
    public Optional<String> restrictedTo() {
        return current().filter(caller -> !caller.hasRole(SERVICE_ROLE)).map(SecurityActingUser::userId);
    }

    @Override
    public Optional<String> authenticated() {
        return current().map(SecurityActingUser::userId);
    }

    /** The identity of the current request, or empty outside a request and for anonymous callers. */
    private Optional<SecurityIdentity> current() {
        if (!Arc.container().requestContext().isActive() || !identity.isResolvable()) {
            return Optional.empty();
        }
        SecurityIdentity current = identity.get();
        return current.isAnonymous() ? Optional.empty() : Optional.of(current);
    }

    private static String userId(SecurityIdentity identity) {
        // the token's subject, never upn or preferred_username (smallrye-jwt's getName() prefers those)
        return identity.getPrincipal() instanceof JsonWebToken jwt && jwt.getSubject() != null
                ? jwt.getSubject()
                : identity.getPrincipal().getName();
    }
}
