package dev.mnemos.injection;

import io.quarkus.arc.Arc;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.Optional;

/**
 * The authenticated principal of the current request. Calls outside a request, anonymous calls
 * and callers with the {@code service} role (DESIGN.md section 8) are not restricted.
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
        if (!Arc.container().requestContext().isActive() || !identity.isResolvable()) {
            return Optional.empty();
        }
        SecurityIdentity current = identity.get();
        if (current.isAnonymous() || current.hasRole(SERVICE_ROLE)) {
            return Optional.empty();
        }
        // the token's subject, never upn or preferred_username (smallrye-jwt's getName() prefers those)
        return Optional.of(current.getPrincipal() instanceof JsonWebToken jwt && jwt.getSubject() != null
                ? jwt.getSubject() : current.getPrincipal().getName());
    }
}
