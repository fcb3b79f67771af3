package dev.mnemos.deployment.devui;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** The HTTP Basic test application's one user, {@code alice} / {@code secret}. */
@ApplicationScoped
public class BasicUsers implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request,
            AuthenticationRequestContext context) {
        if (request.getUsername().equals("alice") && new String(request.getPassword().getPassword()).equals("secret")) {
            return Uni.createFrom()
                    .item(QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("alice")).build());
        }
        return Uni.createFrom().failure(new AuthenticationFailedException());
    }
}
