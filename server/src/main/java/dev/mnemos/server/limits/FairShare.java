package dev.mnemos.server.limits;

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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Gives each user (the token's subject) a fair share of a pod: a token bucket of {@link LimitsConfig#burst()} requests
 * refilled at {@link LimitsConfig#requestsPerSecond()}, and at most {@link LimitsConfig#maxConcurrent()} requests in
 * flight. Beyond either, the request answers 429 problem+json with {@code Retry-After} (seconds) before any work is
 * done. Runs as an HTTP filter after authentication and authorization; requests without a token are not counted (they
 * get no further than 401). An MCP batch takes one more token per further message ({@link #takeMore}).
 */
@ApplicationScoped
public class FairShare {

    private static final Logger LOG = Logger.getLogger(FairShare.class);
    /** Below {@code SecurityHandlerPriorities.AUTHORIZATION} (100), above the MCP filters (50 and below). */
    private static final int PRIORITY = 70;
    private static final String PROBLEM = "application/problem+json";

    /** One user's bucket and requests in flight. */
    private record Share(TokenBucket bucket, AtomicInteger inFlight) {
    }

    private final LimitsConfig config;
    private final Map<String, Share> shares = new ConcurrentHashMap<>();
    /** Size of {@link #shares} after the last sweep of idle users. */
    private final AtomicInteger swept = new AtomicInteger();

    FairShare(LimitsConfig config) {
        this.config = config;
    }

    void register(@Observes Filters filters) {
        filters.register(this::check, PRIORITY);
    }

    void check(RoutingContext ctx) {
        String subject = subject(ctx);
        if (subject == null) {
            ctx.next();
            return;
        }
        Share share = share(subject);
        long wait = config.requestsPerSecond() > 0 ? share.bucket().take(1, System.nanoTime()) : 0;
        if (wait > 0) {
            tooMany(ctx, wait, "this user's requests exceed " + config.requestsPerSecond() + " per second (burst "
                    + config.burst() + ", mnemos.limits.requests-per-second)");
            return;
        }
        if (config.maxConcurrent() > 0 && !stream(ctx)) {
            if (share.inFlight().incrementAndGet() > config.maxConcurrent()) {
                share.inFlight().decrementAndGet();
                tooMany(ctx, TimeUnit.SECONDS.toNanos(1), "this user already has " + config.maxConcurrent()
                        + " requests in flight (mnemos.limits.max-concurrent)");
                return;
            }
            ctx.addEndHandler(v -> share.inFlight().decrementAndGet());
        }
        ctx.next();
    }

    /**
     * Takes {@code permits} more tokens of the caller's bucket (an MCP batch's further messages); when they are not
     * there, answers 429 and returns false. The caller is the request's authenticated subject.
     */
    public boolean takeMore(RoutingContext ctx, int permits) {
        String subject = subject(ctx);
        if (subject == null || permits <= 0 || config.requestsPerSecond() <= 0) {
            return true;
        }
        long wait = share(subject).bucket().take(permits, System.nanoTime());
        if (wait > 0) {
            tooMany(ctx, wait, "a batch of " + (permits + 1) + " messages exceeds this user's " + config.requestsPerSecond()
                    + " requests per second (burst " + config.burst() + ", mnemos.limits.requests-per-second)");
            return false;
        }
        return true;
    }

    private Share share(String subject) {
        Share share = shares.get(subject);
        if (share != null) {
            return share;
        }
        share = shares.computeIfAbsent(subject, s -> new Share(
                new TokenBucket(Math.max(1, config.burst()), Math.max(1, config.requestsPerSecond()), System.nanoTime()),
                new AtomicInteger()));
        int size = shares.size();
        int last = swept.get();
        if (size > 2 * last + 1024 && swept.compareAndSet(last, size)) {
            // users idle long enough to have a full bucket and nothing in flight leave, amortised over new ones
            long now = System.nanoTime();
            shares.values().removeIf(s -> s.inFlight().get() == 0 && s.bucket().full(now));
            swept.set(shares.size());
        }
        return share;
    }

    /** The MCP server's GET stream stays open as long as the client listens: not a request in flight. */
    private static boolean stream(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        return ctx.request().method() == HttpMethod.GET && ("/mcp".equals(path) || "/mcp/".equals(path));
    }

    private static void tooMany(RoutingContext ctx, long waitNanos, String detail) {
        long seconds = Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L);
        LOG.debugf("429 for %s: %s", ctx.normalizedPath(), detail);
        JsonObject problem = new JsonObject().put("type", "about:blank").put("title", "Too Many Requests").put("status", 429)
                .put("detail", detail + "; retry after " + seconds + " s").put("retryAfterSeconds", seconds);
        ctx.response().setStatusCode(429).putHeader("Content-Type", PROBLEM).putHeader("Retry-After", Long.toString(seconds))
                .end(problem.encode());
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
