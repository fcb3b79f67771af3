package dev.mnemos.rest;

import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Serves {@code /v1/users/{userId}/sessions/{id}/…} with the {@code /v1/sessions/{id}/…} resources, acting
 * on the sessions of the user in the path: the way a {@code service} token reaches a user's session. On
 * {@code /v1/sessions/{id}/…} every token, a service's too, acts for its own subject only.
 */
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class UserPathRewrite {

    /** A session path under a user; {@code …/sessions/ended} is the list of ended sessions, served as it is. */
    private static final Pattern USER_SESSION = Pattern.compile("^(.*/)?v1/users/([^/]*)/sessions/(?!ended$)([^/].*)$");

    private final Caller caller;
    private final SecurityIdentity identity;

    public UserPathRewrite(Caller caller, SecurityIdentity identity) {
        this.caller = caller;
        this.identity = identity;
    }

    @ServerRequestFilter(preMatching = true)
    public void rewrite(ContainerRequestContext request, HttpServerRequest http) {
        if (!http.path().contains("users/")) {
            return; // most requests: no absolute request URI is built and parsed for them
        }
        Matcher m = USER_SESSION.matcher(request.getUriInfo().getRequestUri().getRawPath());
        if (!m.matches()) {
            return;
        }
        if (!identity.isAnonymous()) { // an anonymous caller gets the resources' 401
            caller.actOnSessionsOf(m.group(2));
        }
        String prefix = m.group(1) == null ? "" : m.group(1);
        request.setRequestUri(request.getUriInfo().getRequestUriBuilder()
                .replacePath(prefix + "v1/sessions/" + m.group(3)).build());
    }
}
