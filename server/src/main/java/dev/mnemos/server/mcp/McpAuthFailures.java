package dev.mnemos.server.mcp;

import io.quarkus.security.AuthenticationException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Answers a refused caller of {@code /mcp} (no or an invalid token: 401, a denied path: 403) with a JSON-RPC error
 * whose message says what to do, as the MCP server does but without its text, which is the exception's class name
 * ({@code io.quarkus.security.AuthenticationFailedException}). A 401 carries {@code WWW-Authenticate: Bearer}.
 * The body of a refused request is never read: the error's id is null.
 */
@ApplicationScoped
public class McpAuthFailures {

    /** JSON-RPC's code for a refused caller, the one the MCP server uses. */
    static final int SECURITY_ERROR = -32001;
    static final String UNAUTHORIZED = "Unauthorized: send a valid bearer token (Authorization: Bearer <JWT>) whose"
            + " issuer, signature and expiry the server accepts";
    static final String FORBIDDEN = "Forbidden: this endpoint is not served to this caller; MCP is served at POST /mcp"
            + " (Streamable HTTP)";
    /** Before Mnemos' own failure handler of the HTTP layer and the MCP server's route. */
    private static final int ORDER = Integer.MIN_VALUE + 99;

    void install(@Observes Router router) {
        router.route().order(ORDER).failureHandler(McpAuthFailures::failure);
    }

    private static void failure(RoutingContext ctx) {
        Throwable failure = ctx.failure();
        boolean denied = failure instanceof ForbiddenException;
        boolean refused = denied || failure instanceof AuthenticationException || failure instanceof UnauthorizedException;
        if (!refused || !isMcp(ctx.normalizedPath()) || ctx.response().headWritten()) {
            ctx.next();
            return;
        }
        ctx.response().setStatusCode(denied ? 403 : 401);
        if (!denied) {
            ctx.response().putHeader("WWW-Authenticate", "Bearer");
        }
        if (!ctx.request().isEnded()) {
            ctx.request().resume(); // the unread body is drained, the connection kept
        }
        // the body is not read: a refused caller's request is never parsed, so the error answers id null
        JsonObject error = new JsonObject().put("jsonrpc", "2.0").putNull("id")
                .put("error", new JsonObject().put("code", SECURITY_ERROR).put("message", denied ? FORBIDDEN : UNAUTHORIZED));
        ctx.response().putHeader("Content-Type", "application/json").end(error.toBuffer());
    }

    static boolean isMcp(String path) {
        return path != null && (path.equals("/mcp") || path.startsWith("/mcp/"));
    }
}
