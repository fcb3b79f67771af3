package dev.mnemos.injection.step;

import dev.mnemos.injection.ActingAs;
import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.ActingUserUnknownException;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.ToolingMechanism;
import dev.mnemos.session.SessionIds;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who a step acts for, in this order:
 * <ul>
 * <li>an {@link ActingAs} scope of the calling thread: the user it names, or the system actor (any user's sessions;
 * it starts none);</li>
 * <li>the request's authenticated principal (a JWT's subject, else the principal's name), wherever context
 * propagation carried the request (a {@code ManagedExecutor}, Mutiny, virtual threads). Callers with the
 * {@code service} role (see docs/http-api.md) are not restricted;</li>
 * <li>an anonymous HTTP caller of an application that has an authentication mechanism reaches only the sessions of
 * {@link InjectionConfig#anonymousUser()}, unless {@link InjectionConfig#anonymousAccess()} is
 * {@code UNRESTRICTED};</li>
 * <li>anything else in such an application (a thread of its own, a pool without context propagation, a scheduled job)
 * fails closed with {@link ActingUserUnknownException};</li>
 * <li>in an application without any authentication mechanism every caller is anonymous and not restricted.</li>
 * </ul>
 */
@ApplicationScoped
class SecurityActingUser implements ActingUser {

    private static final Logger LOG = Logger.getLogger(SecurityActingUser.class);
    static final String SERVICE_ROLE = "service";

    private final Instance<SecurityIdentity> identity;
    private final boolean authenticating;
    private final boolean anonymousRestricted;
    private final String anonymousUser;

    public SecurityActingUser(Instance<SecurityIdentity> identity, Instance<HttpAuthenticationMechanism> mechanisms,
            Instance<IdentityProvider<?>> providers, InjectionConfig config) {
        this.identity = identity;
        this.anonymousUser = SessionIds.require("quarkus.mnemos.injection.anonymous-user", config.anonymousUser());
        this.authenticating = authenticates(mechanisms, providers);
        this.anonymousRestricted = authenticating
                && config.anonymousAccess() == InjectionConfig.AnonymousAccess.OWN_SESSIONS;
    }

    /**
     * Whether the application authenticates its callers: one of its own mechanisms can authenticate someone. Mnemos'
     * dev-mode user switch is none, so dev mode restricts as production does; Quarkus' default HTTP Basic mechanism,
     * present wherever Quarkus Security is, counts only when an identity provider takes user names and passwords.
     */
    private static boolean authenticates(Instance<HttpAuthenticationMechanism> mechanisms,
            Instance<IdentityProvider<?>> providers) {
        Set<Class<?>> accepted = providers.stream().map(IdentityProvider::getRequestType).collect(Collectors.toSet());
        return mechanisms.handlesStream()
                .filter(m -> !ToolingMechanism.class.isAssignableFrom(m.getBean().getBeanClass()))
                .map(Instance.Handle::get)
                .anyMatch(
                        m -> m.getCredentialTypes().isEmpty() || m.getCredentialTypes().stream().anyMatch(accepted::contains));
    }

    void onStart(@Observes StartupEvent start, InjectionConfig config) {
        if (config.anonymousAccess() == InjectionConfig.AnonymousAccess.UNRESTRICTED) {
            LOG.info("quarkus.mnemos.injection.anonymous-access=UNRESTRICTED: anonymous HTTP callers may reach"
                    + " every user's sessions through @SessionMemory methods");
        }
    }

    @Override
    public Actor actor() {
        Optional<ActingAs> named = ActingAs.current();
        if (named.isPresent()) {
            return named.get().userId().map(Actor::user).orElse(new Actor(Optional.empty(), Optional.empty()));
        }
        Optional<SecurityIdentity> current = current();
        if (current.isPresent() && !current.get().isAnonymous()) {
            SecurityIdentity caller = current.get();
            String userId = userId(caller);
            return caller.hasRole(SERVICE_ROLE) ? Actor.unrestricted(userId) : Actor.user(userId);
        }
        if (!authenticating) {
            return Actor.unrestricted(anonymousUser);
        }
        if (current.isPresent() && inHttpRequest()) {
            return anonymousRestricted ? Actor.user(anonymousUser) : Actor.unrestricted(anonymousUser);
        }
        throw new ActingUserUnknownException("a @SessionMemory step");
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
