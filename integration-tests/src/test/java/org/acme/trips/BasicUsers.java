package org.acme.trips;

import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The users of the application when it is built with HTTP Basic ({@link MnemosRestEnabledTest}):
 * any name, with the password {@link #PASSWORD}. Absent from the default build, which has no security.
 */
@ApplicationScoped
@IfBuildProperty(name = "quarkus.http.auth.basic", stringValue = "true")
public class BasicUsers implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    static final String PASSWORD = "trip-secret";

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request,
            AuthenticationRequestContext context) {
        if (!PASSWORD.equals(new String(request.getPassword().getPassword()))) {
            return Uni.createFrom().failure(new AuthenticationFailedException());
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(request.getUsername())).addRole("user").build());
    }
}
