package dev.mnemos.devmode;

import dev.mnemos.injection.ToolingMechanism;
import dev.mnemos.session.InvalidPatchException;
import dev.mnemos.session.SessionIds;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.Set;

/**
 * Dev mode only: a request from this machine that carries {@value #HEADER} is that user, so the inspector
 * opened from the Dev UI reads a picked user's sessions in an application with no authentication, with HTTP
 * Basic or with bearer tokens alike. It runs before the application's own mechanisms and stays out of their way:
 * a request without the header, or from another machine, is left to them.
 */
@ApplicationScoped
public class DevUserMechanism implements HttpAuthenticationMechanism, ToolingMechanism {

    /** The header the dev-mode inspector sends with every API call. */
    public static final String HEADER = "X-Mnemos-Dev-User";
    /** Sent by the dev-mode inspector with every call, a user picked or not. */
    public static final String INSPECTOR_HEADER = "X-Mnemos-Dev-Inspector";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        if (context.request().getHeader(INSPECTOR_HEADER) != null) {
            // whichever mechanism's challenge Quarkus picks, the page never gets one a browser answers with a prompt
            context.addHeadersEndHandler(v -> context.response().headers().remove("WWW-Authenticate"));
        }
        String user = context.request().getHeader(HEADER);
        if (user == null || !isUser(user) || !isLocal(context.request().remoteAddress())) {
            return Uni.createFrom().optional(Optional.empty());
        }
        return identities.authenticate(HttpSecurityUtils.setRoutingContextAttribute(new DevUserRequest(user), context));
    }

    private static boolean isUser(String id) {
        try {
            SessionIds.requireUser(HEADER, id);
            return true;
        } catch (InvalidPatchException e) {
            return false;
        }
    }

    /** Only requests from the developer's own machine, as the Dev UI itself. */
    static boolean isLocal(SocketAddress address) {
        if (address == null || address.hostAddress() == null) {
            return false;
        }
        try {
            return InetAddress.getByName(address.hostAddress()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * A bare 401 to the dev-mode inspector, whose page asks for a user itself: an HTTP Basic challenge would make the
     * browser prompt for a password. Every other request gets the application's own challenge.
     */
    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        if (context.request().getHeader(INSPECTOR_HEADER) != null) {
            return Uni.createFrom().item(new ChallengeData(401, null, null));
        }
        return Uni.createFrom().nullItem();
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(DevUserRequest.class);
    }

    /** Before the application's mechanisms, so a browser's cached Basic credentials do not win over the pick. */
    @Override
    public int getPriority() {
        return DEFAULT_PRIORITY + 1000;
    }
}
