package dev.mnemos.injection.step;

import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.ToolingMechanism;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

import java.util.Optional;

/**
 * The authenticated principal of the current request (a JWT's subject, else the principal's name).
 * <ul>
 * <li>Callers with the {@code service} role (see docs/http-api.md) and calls outside an HTTP request
 * (a pool, a scheduled job, a consumer) are not restricted.</li>
 * <li>An anonymous HTTP caller of an application that has an authentication mechanism reaches only the
 * sessions of {@link InjectionConfig#anonymousUser()}, unless {@link InjectionConfig#anonymousAccess()}
 * is {@code UNRESTRICTED}.</li>
 * <li>In an application without any authentication mechanism every caller is anonymous and not
 * restricted.</li>
 * </ul>
 */
@ApplicationScoped
class SecurityActingUser implements ActingUser {

    private static final Logger LOG = Logger.getLogger(SecurityActingUser.class);
    static final String SERVICE_ROLE = "service";

    private final Instance<SecurityIdentity> identity;
    private final boolean anonymousRestricted;
    private final String anonymousUser;

    public SecurityActingUser(Instance<SecurityIdentity> identity, Instance<HttpAuthenticationMechanism> mechanisms,
            InjectionConfig config) {
        this.identity = identity;
        this.anonymousUser = config.anonymousUser();
        this.anonymousRestricted = hasOwnMechanism(mechanisms)
                && config.anonymousAccess() == InjectionConfig.AnonymousAccess.OWN_SESSIONS;
    }

    /** The application's own mechanisms: Mnemos' dev-mode user switch is none, so dev mode restricts as production does. */
    private static boolean hasOwnMechanism(Instance<HttpAuthenticationMechanism> mechanisms) {
        return mechanisms.handlesStream()
                .anyMatch(m -> !ToolingMechanism.class.isAssignableFrom(m.getBean().getBeanClass()));
    }

    void onStart(@Observes StartupEvent start, InjectionConfig config) {
        if (config.anonymousAccess() == InjectionConfig.AnonymousAccess.UNRESTRICTED) {
            LOG.info("quarkus.mnemos.injection.anonymous-access=UNRESTRICTED: anonymous HTTP callers may reach"
                    + " every user's sessions through @SessionMemory methods");
        }
    }

    @Override
    public Optional<String> restrictedTo() {
        Optional<SecurityIdentity> current = current();
        if (current.isEmpty()) {
            return Optional.empty();
        }
        if (current.get().isAnonymous()) {
            return anonymousRestricted && inHttpRequest() ? Optional.of(anonymousUser) : Optional.empty();
        }
        return current.filter(caller -> !caller.hasRole(SERVICE_ROLE)).map(SecurityActingUser::userId);
    }

    @Override
    public Optional<String> authenticated() {
        return current().filter(caller -> !caller.isAnonymous()).map(SecurityActingUser::userId);
    }

    /** The identity of the current request context, or empty outside one. */
    private Optional<SecurityIdentity> current() {
        if (!Arc.container().requestContext().isActive() || !identity.isResolvable()) {
            return Optional.empty();
        }
        return Optional.of(identity.get());
    }

    private static boolean inHttpRequest() {
        CurrentVertxRequest request = Arc.container().instance(CurrentVertxRequest.class).get();
        return request != null && request.getCurrent() != null;
    }

    private static String userId(SecurityIdentity identity) {
        // the token's subject, never upn or preferred_username (smallrye-jwt's getName() prefers those)
        return identity.getPrincipal() instanceof JsonWebToken jwt && jwt.getSubject() != null
                ? jwt.getSubject()
                : identity.getPrincipal().getName();
    }
}
