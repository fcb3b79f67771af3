package dev.mnemos.devmode;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Dev mode only: the identity of a {@link DevUserRequest}, a user with no roles named by the request. */
@ApplicationScoped
public class DevUserIdentityProvider implements IdentityProvider<DevUserRequest> {

    @Override
    public Class<DevUserRequest> getRequestType() {
        return DevUserRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(DevUserRequest request, AuthenticationRequestContext context) {
        return Uni.createFrom().item(
                QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal(request.userId())).build());
    }
}
