package dev.mnemos.server.mcp;

import dev.mnemos.server.limits.FairShare;
import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Checks the shape of every JSON-RPC message posted to {@code /mcp} before the MCP server reads it, and answers a
 * malformed one with a JSON-RPC error and one short log line: the server itself answers an empty batch ({@code []})
 * with HTTP 500, non-object {@code arguments} with -32603 (internal error), and logs a stack trace for each. Refused
 * here: a body that is not JSON (-32700), a message that is not an object, an empty batch, a batch item that is not
 * an object, a {@code jsonrpc} other than "2.0", a non-string {@code method} or an id that is neither string nor
 * number (-32600, HTTP 400), and {@code params}, {@code params._meta} or a {@code tools/call}'s {@code arguments}
 * that are not objects, or its {@code name} that is not a string (-32602, answered to the request's id with HTTP 200
 * when the body is that one request, else HTTP 400). A batch is also refused (-32600, HTTP 400) when it holds more than
 * {@link McpLimits#maxBatchSize()} messages or repeats one (the same method and params: an answer sent twice for
 * nothing), and takes one request of the caller's {@link FairShare} per further message (429 beyond it). A body let
 * through is passed on {@link #normalised}. Runs as HTTP filters after authentication, authorization and
 * {@link McpSessionOwners}.
 */
@ApplicationScoped
public class McpMessageGuard {

    private static final Logger LOG = Logger.getLogger(McpMessageGuard.class);
    /** Below {@link McpSessionOwners}' 50: the caller is known, allowed on /mcp and owns the MCP session. */
    private static final int BODY_PRIORITY = 45;
    private static final int CHECK_PRIORITY = 44;

    /** What is wrong with a message: a JSON-RPC error code, the text sent back, the id answered (may be null). */
    record Refusal(int code, String message, Object id) {
    }

    private final BodyHandler body;
    private final McpLimits limits;
    private final FairShare share;

    McpMessageGuard(@ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K") MemorySize limit,
            McpLimits limits, FairShare share) {
        // the MCP server's own body handler sees the body read and passes it on
        this.body = BodyHandler.create(false).setBodyLimit(limit.asLongValue());
        this.limits = limits;
        this.share = share;
    }

    void register(@Observes Filters filters) {
        filters.register(ctx -> {
            if (applies(ctx)) {
                body.handle(ctx);
            } else {
                ctx.next();
            }
        }, BODY_PRIORITY);
        filters.register(ctx -> {
            if (applies(ctx)) {
                check(ctx);
            } else {
                ctx.next();
            }
        }, CHECK_PRIORITY);
    }

    private static boolean applies(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        return ctx.request().method() == HttpMethod.POST && ("/mcp".equals(path) || "/mcp/".equals(path));
    }

    private void check(RoutingContext ctx) {
        Refusal refusal = refusal(ctx.body().buffer());
        int messages = refusal == null ? messages(ctx.body().buffer()) : 1;
        if (refusal == null && messages > 1) {
            refusal = batchRefusal((JsonArray) Json.decodeValue(ctx.body().buffer()), limits.maxBatchSize());
        }
        if (refusal == null && !share.takeMore(ctx, messages - 1)) {
            return;
        }
        if (refusal == null) {
            Buffer normalised = normalised(ctx.body().buffer());
            if (normalised != null) {
                ctx.setBody(normalised);
            }
            ctx.next();
            return;
        }
        LOG.infof("MCP: refused a malformed message (%d %s)", refusal.code(), refusal.message());
        boolean answersRequest = refusal.id() != null && refusal.code() == JsonRpcErrorCodes.INVALID_PARAMS;
        JsonObject error = new JsonObject().put("jsonrpc", "2.0").put("id", refusal.id())
                .put("error", new JsonObject().put("code", refusal.code()).put("message", refusal.message()));
        ctx.response().setStatusCode(answersRequest ? 200 : 400).putHeader("Content-Type", "application/json")
                .end(error.encode());
    }

    /**
     * The body with every {@code tools/call}'s {@code arguments} present (an object, {@code {}} when absent) and without
     * its {@code null} arguments, or null when nothing changes. A {@code null} argument means the same as an absent one
     * ({@link StrictArguments} refuses a missing required one); the MCP server's input guardrails cannot take either.
     * Only for a body {@link #refusal} let through.
     */
    static Buffer normalised(Buffer body) {
        Object json = Json.decodeValue(body);
        boolean changed = false;
        if (json instanceof JsonObject message) {
            changed = normalise(message);
        } else if (json instanceof JsonArray batch) {
            for (Object item : batch) {
                changed |= normalise((JsonObject) item);
            }
        }
        return changed ? Buffer.buffer(Json.encode(json)) : null;
    }

    private static boolean normalise(JsonObject message) {
        if (!"tools/call".equals(message.getValue("method")) || !(message.getValue("params") instanceof JsonObject params)) {
            return false;
        }
        if (!(params.getValue("arguments") instanceof JsonObject arguments)) {
            params.put("arguments", new JsonObject());
            return true;
        }
        return arguments.getMap().values().removeIf(Objects::isNull);
    }

    /** How many messages a body {@link #refusal} let through holds: 1 for a message, the size of a batch. */
    static int messages(Buffer body) {
        for (int i = 0; i < body.length(); i++) {
            byte b = body.getByte(i);
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return b == '[' ? ((JsonArray) Json.decodeValue(body)).size() : 1;
            }
        }
        return 1;
    }

    /** Why a well-formed batch is refused: more than {@code max} messages, or one repeated; null when it is not. */
    static Refusal batchRefusal(JsonArray batch, int max) {
        if (batch.size() > max) {
            return new Refusal(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: a batch of " + batch.size()
                    + " messages; at most " + max + " are accepted (mnemos.mcp.max-batch-size)", null);
        }
        Set<String> seen = new HashSet<>();
        for (Object item : batch) {
            JsonObject message = (JsonObject) item;
            String request = message.getValue("method") + " " + Json.encode(message.getValue("params"));
            if (message.getValue("method") != null && !seen.add(request)) {
                return new Refusal(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: a batch repeats a request (method "
                        + "and params of '" + message.getValue("method") + "'); send it once", null);
            }
        }
        return null;
    }

    /** Why the posted body is refused, or null when the MCP server may read it. */
    static Refusal refusal(Buffer body) {
        Object json;
        try {
            json = body == null || body.length() == 0 ? null : Json.decodeValue(body);
        } catch (DecodeException e) {
            return new Refusal(JsonRpcErrorCodes.PARSE_ERROR, "Parse error: the body is not JSON", null);
        }
        if (json instanceof JsonObject message) {
            return refusal(message, true);
        }
        if (json instanceof JsonArray batch) {
            if (batch.isEmpty()) {
                return new Refusal(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: an empty batch", null);
            }
            for (Object item : batch) {
                if (!(item instanceof JsonObject message)) {
                    return new Refusal(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: a batch item is not an object",
                            null);
                }
                Refusal refusal = refusal(message, false);
                if (refusal != null) {
                    return refusal;
                }
            }
            return null;
        }
        return new Refusal(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object", null);
    }

    /** @param alone whether the message is the whole body: only then is an invalid-params error answered to its id */
    private static Refusal refusal(JsonObject message, boolean alone) {
        Object id = message.getValue("id");
        if (id != null && !(id instanceof String) && !(id instanceof Number)) {
            return new Refusal(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: id must be a string or a number", null);
        }
        if (!"2.0".equals(message.getValue("jsonrpc"))) {
            return new Refusal(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"", null);
        }
        Object method = message.getValue("method");
        if (method != null && !(method instanceof String)) {
            return new Refusal(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid Request: method must be a string", null);
        }
        String params = invalidParams(message, (String) method);
        if (params == null) {
            return null;
        }
        return new Refusal(JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: " + params, alone ? id : null);
    }

    /** What is wrong with the message's params, or null. */
    private static String invalidParams(JsonObject message, String method) {
        Object params = message.getValue("params");
        if (params == null) {
            return null;
        }
        if (!(params instanceof JsonObject object)) {
            return "params must be an object";
        }
        Object meta = object.getValue("_meta");
        if (meta != null && !(meta instanceof JsonObject)) {
            return "params._meta must be an object";
        }
        if (!"tools/call".equals(method)) {
            return null;
        }
        if (!(object.getValue("name") instanceof String)) {
            return "params.name must be the tool's name, a string";
        }
        Object arguments = object.getValue("arguments");
        if (arguments != null && !(arguments instanceof JsonObject)) {
            return "params.arguments must be an object of the tool's arguments";
        }
        return null;
    }
}
