package dev.mnemos.server.mcp;

import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Binds each MCP session (Streamable HTTP, {@code Mcp-Session-Id}) to the subject whose token opened it. A
 * request to {@code /mcp} carrying a session id answers 404 ({@link #UNKNOWN_SESSION}), as for an unknown session
 * (one that ended, or that another instance opened), unless its token has
 * that subject: another user's token can neither use nor {@code DELETE} the session. Runs as an HTTP filter
 * after authentication and authorization. Session ids are logged at DEBUG only.
 */
@ApplicationScoped
public class McpSessionOwners {

    static final String SESSION_HEADER = "Mcp-Session-Id";
    /**
     * The answer to an unknown session, and to another subject's (which must not learn that it exists): MCP clients
     * answer a 404 by initialising again; the detail says why a client with a live session can meet it, an instance
     * other than the one that opened the session (docs/operations.md, "Several instances").
     */
    static final JsonObject UNKNOWN_SESSION = new JsonObject().put("type", "about:blank").put("title", "Not Found")
            .put("status", 404).put("detail", "no MCP session with this Mcp-Session-Id here: it ended, or another"
                    + " server instance opened it (an MCP session lives in the instance that opened it); send initialize"
                    + " again without Mcp-Session-Id, or route a client's requests to one instance");
    /** Below {@code SecurityHandlerPriorities.AUTHORIZATION} (100): the caller is known and allowed on /mcp. */
    private static final int PRIORITY = 50;
    private static final Logger LOG = Logger.getLogger(McpSessionOwners.class);

    private final ConnectionManager connections;
    private final Map<String, String> owners = new ConcurrentHashMap<>();
    /** Size of {@link #owners} after the last sweep of ended sessions. */
    private final AtomicInteger swept = new AtomicInteger();

    McpSessionOwners(ConnectionManager connections) {
        this.connections = connections;
    }

    void register(@Observes Filters filters) {
        filters.register(this::check, PRIORITY);
    }

    void check(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        if (!"/mcp".equals(path) && !"/mcp/".equals(path)) {
            ctx.next();
            return;
        }
        String subject = subject(ctx);
        String session = ctx.request().getHeader(SESSION_HEADER);
        if (session == null) {
            if (subject != null && ctx.request().method() == HttpMethod.POST) {
                // an initialize: the server names the new session in its answer's header
                ctx.addHeadersEndHandler(v -> {
                    String opened = ctx.response().headers().get(SESSION_HEADER);
                    if (opened != null) {
                        bind(opened, subject);
                    }
                });
            }
            ctx.next();
            return;
        }
        String owner = owners.get(session);
        if (owner == null || !owner.equals(subject)) {
            LOG.debugf("MCP session %s refused: unknown here, or opened by another subject", session);
            ctx.response().setStatusCode(404).putHeader("Content-Type", "application/problem+json")
                    .end(UNKNOWN_SESSION.encode());
            return;
        }
        if (ctx.request().method() == HttpMethod.DELETE) {
            ctx.addBodyEndHandler(v -> {
                if (!connections.has(session)) {
                    owners.remove(session);
                }
            });
        }
        ctx.next();
    }

    private void bind(String session, String subject) {
        owners.putIfAbsent(session, subject);
        int size = owners.size();
        int last = swept.get();
        if (size > 2 * last + 1024 && swept.compareAndSet(last, size)) {
            // sessions the server ended (idle timeout, DELETE) leave here in bulk, amortised over new ones
            owners.keySet().removeIf(id -> !connections.has(id));
            swept.set(owners.size());
        }
    }

    private static String subject(RoutingContext ctx) {
        if (!(ctx.user() instanceof QuarkusHttpUser user)) {
            return null;
        }
        SecurityIdentity identity = user.getSecurityIdentity();
        if (identity == null || identity.isAnonymous()) {
            return null;
        }
        if (identity.getPrincipal() instanceof JsonWebToken jwt && jwt.getSubject() != null) {
            return jwt.getSubject();
        }
        return identity.getPrincipal().getName();
    }
}
