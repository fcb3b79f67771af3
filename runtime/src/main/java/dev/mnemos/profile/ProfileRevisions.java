package dev.mnemos.profile;

import dev.mnemos.session.MnemosRedis;
import dev.mnemos.session.ScriptTransport;
import dev.mnemos.session.SessionConfig;
import dev.mnemos.session.SessionScripts;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A copy of each profile's revision in Redis ({@code mnemos:{p:<user>}:revision}), so a step can
 * tell that its cached facts are current without a Postgres round trip: it sends the copy's read before it reads
 * the session ({@link #ahead}), and goes to Postgres only when the copy is missing or names a revision the
 * cache does not hold.
 * <p>
 * The copy only grows ({@code raise}: set when greater), lives
 * {@link ProfileConfig#revisionMirrorTtl()}, and is set by every profile write after its commit and
 * before the write returns ({@link ProfileRevised}, observed after success), so a step that starts
 * after a profile write returned sees it, on any pod. A step that read the revision from Postgres
 * offers it too (same rule: a late offer never lowers it). When Redis cannot be reached after a
 * commit the write still succeeds (logged, counted as {@code mnemos.profile.revision.copy.failures}):
 * steps may then use the previous facts until the copy expires.
 */
@ApplicationScoped
public class ProfileRevisions {

    private static final Logger LOG = Logger.getLogger(ProfileRevisions.class);

    // ARGV: revision, ttl ms. Sets the copy when it is missing or lower; an equal one keeps its expiry
    // (only a read from Postgres or a write prolongs the life of what it confirmed).
    private static final SessionScripts RAISE = SessionScripts.of("""
            local current = tonumber(redis.call('GET', KEYS[1]) or '-1')
            local revision = tonumber(ARGV[1])
            if revision > current then
              redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
              return 1
            end
            return 0""");

    private final ReactiveRedisDataSource redis;
    private final ScriptTransport transport;
    private final ProfileMeters meters;
    private final Duration ttl;
    private final Duration timeout;

    public ProfileRevisions(@MnemosRedis ReactiveRedisDataSource redis, ScriptTransport transport, ProfileConfig config,
            SessionConfig session, ProfileMeters meters) {
        this.redis = redis;
        this.transport = transport;
        this.meters = meters;
        this.ttl = config.revisionMirrorTtl();
        this.timeout = session.redisTimeout();
    }

    /** The key of {@code userId}'s copy. */
    public static String key(String userId) {
        return "mnemos:{p:" + userId + "}:revision";
    }

    /** A copy's value as a revision; empty when absent (null) or not a number. */
    static OptionalLong parse(String copy) {
        if (copy == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(copy));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Whether the copy is kept at all ({@link ProfileConfig#revisionMirrorTtl()} above 0). */
    public boolean enabled() {
        return !ttl.isZero() && !ttl.isNegative();
    }

    /**
     * The revision the copy names, read on the calling thread through the session store's transport
     * ({@link ScriptTransport}: each wait bounded by the session store's Redis timeout); empty when it is missing, turned off,
     * or Redis failed: the
     * step then checks Postgres.
     */
    public OptionalLong current(String userId) {
        if (!enabled()) {
            return OptionalLong.empty();
        }
        try {
            return parse(transport.get(key(userId)));
        } catch (RuntimeException e) {
            LOG.debugf("profile revision copy of %s not read: %s", userId, e);
            return OptionalLong.empty();
        }
    }

    /**
     * {@link #current}, its {@code GET} sent now without waiting: the supplier waits for the reply (bounded by the
     * session store's Redis timeout) and answers empty when the copy is missing, turned off, or Redis failed.
     */
    public Supplier<OptionalLong> ahead(String userId) {
        if (!enabled()) {
            return OptionalLong::empty;
        }
        CompletableFuture<OptionalLong> reply;
        try {
            reply = redis.execute("GET", key(userId)).map(r -> parse(r == null ? null : r.toString()))
                    .subscribeAsCompletionStage();
        } catch (RuntimeException e) {
            LOG.debugf("profile revision copy of %s not read: %s", userId, e);
            return OptionalLong::empty;
        }
        return () -> {
            try {
                return reply.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return OptionalLong.empty();
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                reply.cancel(false);
                LOG.debugf("profile revision copy of %s not read: %s", userId, e);
                return OptionalLong.empty();
            }
        };
    }

    /** After a step read {@code revision} from Postgres: raises the copy without waiting for Redis. */
    void offer(String userId, long revision) {
        if (enabled()) {
            raise(userId, revision).subscribe().with(ok -> {
            }, e -> LOG.debugf("profile revision copy of %s not offered: %s", userId, e));
        }
    }

    /** A committed profile write: raises the copy before the write returns to its caller. */
    public void committed(@Observes(during = TransactionPhase.AFTER_SUCCESS) ProfileRevised revised) {
        if (!enabled()) {
            return;
        }
        try {
            raise(revised.userId(), revised.revision()).await().atMost(timeout);
        } catch (RuntimeException e) {
            meters.revisionCopyFailed();
            LOG.warnf("profile of %s is at revision %d, but its copy in Redis was not raised (%s): steps may use the"
                    + " previous facts until the copy expires", revised.userId(), revised.revision(), e.toString());
        }
    }

    /** Sets the copy to {@code revision} when it is missing or lower. */
    private Uni<Response> raise(String userId, long revision) {
        return RAISE.executeAsync(redis, List.of(key(userId)), List.of(Long.toString(revision), Long.toString(ttl.toMillis())));
    }
}
