package dev.mnemos.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.faulttolerance.api.Guard;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.util.TypeLiteral;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * {@link SessionStore} on Redis. The current state is a hash with a field per scalar and per list
 * item, so a step writes only what it changes: cost does not grow with the session's length.
 * Plan bodies are immutable and live in a hash of their own, each stored once ({@code session-common.lua}).
 * Each write is one Lua script (atomic, optionally compare-and-set) that also appends the event to
 * the replay stream (entry id = version) and an undo record of what it changed; the stream and the
 * records are trimmed to the retention window as the session runs, and a past version is rebuilt from
 * them in one round trip, starting from the nearest periodic checkpoint above it.
 * <p>
 * This class bounds each call and hands it to its part: {@link RedisSessionReads}, {@link RedisSessionWrites},
 * {@link RedisSessionStarts} (create, create-if-absent, fork), the user's index of sessions
 * ({@link RedisUserIndex}) and byte budget ({@link RedisUserBytes}). Every call is bounded by
 * {@link SessionConfig#redisTimeout()}, or by {@link SessionConfig#slowRedisTimeout()} when it replays
 * history; a slower call throws MicroProfile's {@code TimeoutException}. The calls every step makes
 * ({@link #get}, {@link #recent}, {@link #apply}) bound each of their round trips instead
 * ({@link RedisCalls#awaited}). Writes are refused while Redis may evict session keys
 * ({@link RedisDurability}), and wait for the replicas {@link ReplicaWaitConfig} asks for.
 */
@ApplicationScoped
public class RedisSessionStore implements SessionStore {

    private static final Logger LOG = Logger.getLogger(RedisSessionStore.class);

    private static final TypeLiteral<List<SessionEvent>> EVENTS = new TypeLiteral<>() {
    };
    private static final TypeLiteral<List<String>> IDS = new TypeLiteral<>() {
    };
    private static final TypeLiteral<Optional<SessionState>> CREATED = new TypeLiteral<>() {
    };
    private static final TypeLiteral<SessionPage> PAGE = new TypeLiteral<>() {
    };

    private final RedisSessionReads reads;
    private final RedisSessionWrites writes;
    private final RedisSessionStarts starts;
    private final RedisUserIndex index;
    private final Guard fast;
    private final Guard slow;
    /** Refuses writes while Redis runs an evicting policy; null: never refuses (a store built by hand). */
    private final RedisDurability durability;
    /** Where rollbacks and forks are announced ({@link SessionRolledBack}, {@link SessionForked}); null: nowhere. */
    private final Event<Object> moves;

    /** A store built by hand, on the Quarkus client {@code redis}, refusing no write. */
    public RedisSessionStore(RedisDataSource redis, SessionConfig config, ObjectMapper json) {
        this(redis, config, json, new QuarkusScriptTransport(new RedisCalls(redis, config)), null, null,
                ReplicaWait.NONE, SessionValues.CLEAR);
    }

    @Inject
    public RedisSessionStore(@MnemosRedis RedisDataSource redis, SessionConfig config, ObjectMapper json,
            ScriptTransport transport, RedisDurability durability, Event<Object> moves, ReplicaWaitConfig replicaWait,
            SessionValues values) {
        this(redis, config, json, transport, durability, moves, ReplicaWait.of(replicaWait), values);
    }

    private RedisSessionStore(RedisDataSource redis, SessionConfig config, ObjectMapper json, ScriptTransport transport,
            RedisDurability durability, Event<Object> moves, ReplicaWait replicaWait, SessionValues values) {
        RedisCalls calls = new RedisCalls(redis, config, replicaWait);
        StateFields fields = new StateFields(json, values);
        this.durability = durability;
        this.moves = moves;
        this.reads = new RedisSessionReads(calls, transport, fields,
                new RedisReplayLog(redis, transport, config, fields));
        this.index = new RedisUserIndex(calls, transport);
        this.writes = new RedisSessionWrites(calls, transport, fields, reads, index,
                new RedisUserBytes(calls, transport, index), durability != null && durability.refusesEviction());
        this.starts = new RedisSessionStarts(config, fields, reads, writes, index);
        this.fast = timeout("mnemos session store", config.redisTimeout());
        this.slow = timeout("mnemos session history", config.slowRedisTimeout());
    }

    private static Guard timeout(String description, Duration limit) {
        return Guard.create().withDescription(description)
                .withTimeout().duration(limit.toMillis(), ChronoUnit.MILLIS).done()
                .build();
    }

    /** Nothing is written while Redis may evict session keys ({@link RedisDurability#refuseWritesIfEvicting()}). */
    private void refuseIfEvicting() {
        if (durability != null) {
            durability.refuseWritesIfEvicting();
        }
    }

    @Override
    public SessionState create(NewSession request) {
        refuseIfEvicting();
        return fast.get(() -> starts.create(request), SessionState.class);
    }

    @Override
    public Optional<SessionState> createIfAbsent(String sessionId, NewSession request) {
        refuseIfEvicting();
        SessionIds.require("sessionId", sessionId);
        return fast.get(() -> starts.createIfAbsent(sessionId, request), CREATED);
    }

    @Override
    public String owner(String sessionId) {
        return fast.get(() -> reads.owner(sessionId), String.class);
    }

    @Override
    public SessionState get(String sessionId) {
        return reads.load(sessionId, -1);
    }

    @Override
    public SessionState recent(String sessionId, int latestPlans) {
        return reads.load(sessionId, Math.max(0, latestPlans));
    }

    @Override
    public Uni<SessionState> recentAsync(String sessionId, int latestPlans) {
        return reads.recentAsync(sessionId, latestPlans);
    }

    @Override
    public PlanPage plans(String sessionId, int from, int limit) {
        return fast.get(() -> reads.plans(sessionId, from, limit), PlanPage.class);
    }

    @Override
    public AppliedPatch apply(StepWrite write) {
        refuseIfEvicting();
        return writes.apply(write);
    }

    /**
     * The step write without blocking, from the calling (event-loop) thread; a keyed write, or one that needs
     * bytes from its user's budget, runs {@link #apply} on a worker thread.
     */
    @Override
    public Uni<AppliedPatch> applyAsync(StepWrite write) {
        try {
            refuseIfEvicting();
        } catch (RuntimeException e) {
            return Uni.createFrom().failure(e);
        }
        return writes.applyAsync(write, SessionStore.super.applyAsync(write));
    }

    @Override
    public SessionState at(String sessionId, long version) {
        return slow.get(() -> reads.at(sessionId, version, -1).state(), SessionState.class);
    }

    @Override
    public SessionState at(String sessionId, long version, int latestPlans) {
        return slow.get(() -> reads.at(sessionId, version, Math.max(-1, latestPlans)).state(), SessionState.class);
    }

    @Override
    public List<SessionEvent> events(String sessionId, long fromVersion, int limit) {
        return slow.get(() -> reads.events(sessionId, fromVersion, limit), EVENTS);
    }

    @Override
    public SessionState rollback(Rollback request) {
        refuseIfEvicting();
        SessionState rolledBack = slow.get(() -> writes.rollback(request), SessionState.class);
        announce(new SessionRolledBack(request.sessionId(), request.toVersion(), rolledBack.version()));
        return rolledBack;
    }

    @Override
    public SessionState fork(Fork request) {
        SessionState fork = slow.get(() -> {
            refuseIfEvicting();
            return starts.fork(request);
        }, SessionState.class);
        announce(new SessionForked(request.sessionId(), request.fromVersion(), fork.sessionId()));
        return fork;
    }

    /**
     * Tells the application's observers. The move is stored whatever they do: a failure of theirs (Redis failing
     * between the move and their update) is logged, not answered as a failed move.
     */
    private void announce(Object move) {
        if (moves == null) {
            return;
        }
        try {
            moves.fire(move);
        } catch (RuntimeException e) {
            LOG.warnf("%s is stored, but an observer of it failed: %s", move, e.toString());
        }
    }

    @Override
    public SessionState end(String sessionId, String actor) {
        return fast.get(() -> writes.end(sessionId, actor), SessionState.class);
    }

    @Override
    public void delete(String sessionId) {
        fast.get(() -> {
            writes.clear(sessionId, false);
            return null;
        }, Void.class);
    }

    @Override
    public void retire(String sessionId) {
        fast.get(() -> {
            writes.clear(sessionId, true);
            return null;
        }, Void.class);
    }

    @Override
    public List<String> liveSessions(String userId) {
        return fast.get(() -> SessionStoreUnavailableException.guard(() -> index.live(userId)), IDS);
    }

    /**
     * A page walks the user's index newest first from a position, so each page costs a bounded number of
     * commands however many sessions the user has ({@link RedisUserIndex#page}).
     */
    @Override
    public SessionPage liveSessions(String userId, String after, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be 1 or more");
        }
        RedisUserIndex.Position from = after == null ? null : RedisUserIndex.Position.parse(after);
        return fast.get(() -> SessionStoreUnavailableException.guard(() -> index.page(userId, from, limit)), PAGE);
    }
}
