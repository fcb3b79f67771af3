package dev.mnemos.rest;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.AuthenticationException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.util.Map;

/**
 * The HTTP layer below the REST resources: requests whose URI or headers exceed
 * {@link RestConfig#maxUriLength()} / {@link RestConfig#maxHeaderBytes()} answer 414 / 431, an empty
 * {@code Idempotency-Key} header answers 400 naming it (it is not the same as none), and a failure
 * that never reaches a resource (a Vert.x handler's error) answers its status, all as
 * {@code application/problem+json} rather than an empty body. Applies to Mnemos' paths, or to every path
 * with {@link RestConfig#problemsForAllPaths()}. Every answer on Mnemos' paths carries {@code Cache-Control: no-store}
 * and {@code X-Content-Type-Options: nosniff}.
 */
@ApplicationScoped
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class HttpEdge {

    private static final Logger LOG = Logger.getLogger(HttpEdge.class);
    /** Before the body handler, authentication and the REST resources. */
    private static final int ORDER = Integer.MIN_VALUE + 100;

    void install(@Observes Router router, RestConfig config) {
        router.route().order(ORDER).handler(ctx -> limits(ctx, config));
        router.route().order(ORDER).failureHandler(ctx -> failure(ctx, config));
    }

    private static boolean applies(RoutingContext ctx, RestConfig config) {
        return config.problemsForAllPaths() || BodySizeFilter.isMnemosPath(ctx.normalizedPath());
    }

    private static void limits(RoutingContext ctx, RestConfig config) {
        if (BodySizeFilter.isMnemosPath(ctx.normalizedPath())) {
            // answers hold a user's memory: no cache may keep them, no browser may read them as another type
            ctx.response().putHeader("Cache-Control", "no-store").putHeader("X-Content-Type-Options", "nosniff");
        }
        if (!applies(ctx, config)) {
            ctx.next();
            return;
        }
        int uri = ctx.request().uri().length();
        if (uri > config.maxUriLength()) {
            send(ctx, 414, "the request URI has " + uri + " characters; at most " + config.maxUriLength() + " are accepted",
                    "uri");
            return;
        }
        long headers = 0;
        for (Map.Entry<String, String> header : ctx.request().headers()) {
            headers += header.getKey().length() + header.getValue().length() + 4;
        }
        if (headers > config.maxHeaderBytes()) {
            send(ctx, 431, "the request headers have " + headers + " bytes; at most " + config.maxHeaderBytes()
                    + " are accepted", "headers");
            return;
        }
        String key = ctx.request().getHeader(SessionResource.IDEMPOTENCY_KEY);
        if (key != null && key.isBlank() && BodySizeFilter.isMnemosPath(ctx.normalizedPath())) {
            // an empty header is a key the client meant to send, not none: refused as every malformed key is
            send(ctx, 400, SessionResource.IDEMPOTENCY_KEY + ": expected 1 to 255 visible ASCII characters (the header"
                    + " is empty)", SessionResource.IDEMPOTENCY_KEY);
            return;
        }
        String length = ctx.request().getHeader("Content-Length");
        if (length != null && BodySizeFilter.isMnemosPath(ctx.normalizedPath())
                && BodySizeFilter.parse(length) > config.maxBodyBytes()) {
            // answered here, before the HTTP layer's own body limit would answer an empty 413
            send(ctx, 413, "the request body has " + length + " bytes; at most " + config.maxBodyBytes()
                    + " are accepted", "body");
            return;
        }
        ctx.next();
    }

    private static void failure(RoutingContext ctx, RestConfig config) {
        Throwable failure = ctx.failure();
        if (ctx.response().headWritten() || !applies(ctx, config) || failure instanceof AuthenticationException
                || failure instanceof UnauthorizedException || failure instanceof ForbiddenException) {
            ctx.next();
            return;
        }
        if (failure != null && ProfileStoreFaults.isTransient(failure)) {
            LOG.warnf("profile store unavailable: %s", failure.toString());
            ctx.response().putHeader("Retry-After", SessionProblemMappers.RETRY_AFTER_SECONDS);
            send(ctx, 503, ProfileProblemMappers.POSTGRES_DETAIL, null);
            return;
        }
        int status = failure instanceof HttpException http ? http.getStatusCode() : ctx.statusCode();
        if (status < 400 || status > 599) {
            status = 500;
        }
        if (status >= 500) {
            LOG.error("request failed before reaching a resource", failure);
            send(ctx, status, "the request could not be completed", null);
        } else {
            send(ctx, status, HttpResponseStatus.valueOf(status).reasonPhrase(), null);
        }
    }

    private static void send(RoutingContext ctx, int status, String detail, String field) {
        JsonObject problem = new JsonObject().put("type", "about:blank")
                .put("title", HttpResponseStatus.valueOf(status).reasonPhrase()).put("status", status).put("detail", detail);
        if (field != null) {
            problem.put("field", field);
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", Problem.MEDIA_TYPE).end(problem.encode());
    }
}
