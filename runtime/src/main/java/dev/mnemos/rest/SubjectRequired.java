package dev.mnemos.rest;

import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * A token is a user only through its {@code sub} claim ({@link Caller#userId()}): a validly signed token
 * whose subject is missing, empty or blank is refused with 401, on every endpoint.
 */
@ApplicationScoped
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class SubjectRequired implements SecurityIdentityAugmentor {

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.getPrincipal() instanceof JsonWebToken jwt
                && (jwt.getSubject() == null || jwt.getSubject().isBlank())) {
            return Uni.createFrom().failure(new AuthenticationFailedException("the token has no subject"));
        }
        return Uni.createFrom().item(identity);
    }
}
