package dev.mnemos.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.faulttolerance.api.Guard;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.util.TypeLiteral;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link SessionStore} on Redis. The current state is a hash with a field per scalar and per list
 * item, so a step writes only what it changes: cost does not grow with the session's length.
 * Plan bodies are immutable and live in a hash of their own, each stored once ({@code session-common.lua}).
 * Each write is one Lua script (atomic, optionally compare-and-set) that also appends the event to
 * the replay stream (entry id = version) and, every {@code checkpointEvery} versions, a checkpoint
 * of the state hash that references plans instead of copying them; the stream and the checkpoints
 * are trimmed to the retention window as the session runs. Past versions are rebuilt from the
 * nearest checkpoint plus the events after it, in one round trip.
 * Every public call is bounded by {@link SessionConfig#redisTimeout()}, or by
 * {@link SessionConfig#slowRedisTimeout()} when it replays history; a slower call throws
 * MicroProfile's {@code TimeoutException}. The calls every step makes ({@link #get},
 * {@link #recent}, {@link #apply}) bound each of their round trips instead (see {@link #awaited}).
 */
@ApplicationScoped
public class RedisSessionStore implements SessionStore {

    private static final SessionScripts PATCH = SessionScripts.load("session-patch.lua");
    private static final SessionScripts REWRITE = SessionScripts.load("session-rewrite.lua");
    private static final SessionScripts LOAD = SessionScripts.load("session-load.lua");
    private static final SessionScripts PLANS = SessionScripts.load("session-plans.lua");
    /** KEYS: the session's keys, then its ended marker. ARGV: the marker's TTL in ms. */
    private static final SessionScripts RETIRE = SessionScripts.of("""
            redis.call('DEL', unpack(KEYS, 1, #KEYS - 1))
            redis.call('SET', KEYS[#KEYS], '1', 'PX', ARGV[1])
            return 1""");
    private static final SessionScripts RESERVE = SessionScripts.standalone("user-reserve.lua");
    private static final SessionScripts BUDGET = SessionScripts.standalone("user-bytes.lua");
    /** KEYS: state, snap. ARGV: bytes the user's budget granted the session. Reply: {1} or {0}: the session is gone. */
    private static final SessionScripts GRANTED = SessionScripts.of("""
            if redis.call('EXISTS', KEYS[1]) == 0 then return {0} end
            redis.call('HINCRBY', KEYS[2], 'granted', ARGV[1])
            return {1}""");
    private static final TypeLiteral<List<SessionEvent>> EVENTS = new TypeLiteral<>() {
    };
    private static final TypeLiteral<List<String>> IDS = new TypeLiteral<>() {
    };
    private static final TypeLiteral<Optional<SessionState>> CREATED = new TypeLiteral<>() {
    };
    /** Script reply: the idempotency key already has a record; nothing was written. */
    private static final long REPLAYED = -6;
    /** Script reply: the session needs a grant of {@code reply[1]} more bytes from its user's budget; nothing was written. */
    private static final long NEEDS_BYTES = -9;
    /** The least a session is granted at once from its user's budget, so most writes need no grant. */
    private static final long GRANT_STEP = 16 * 1024;

    private final RedisDataSource redis;
    private final ReactiveRedisDataSource reactive;
    private final SessionConfig config;
    private final StateFields fields;
    private final PatchValidator validator;
    private final RedisReplayLog log;
    private final Guard fast;
    private final Guard slow;
    private final StepConnections direct;
    /** Refuses writes while Redis runs an evicting policy; null: never refuses (a store built by hand). */
    private final RedisDurability durability;

    public RedisSessionStore(RedisDataSource redis, SessionConfig config, ObjectMapper json, StepConnections direct) {
        this(redis, config, json, direct, null);
    }

    @jakarta.inject.Inject
    public RedisSessionStore(RedisDataSource redis, SessionConfig config, ObjectMapper json, StepConnections direct,
            RedisDurability durability) {
        this.durability = durability;
        this.redis = redis;
        this.direct = direct;
        this.reactive = redis.getReactive();
        this.config = config;
        this.fields = new StateFields(json);
        this.validator = new PatchValidator(config);
        this.log = new RedisReplayLog(redis, direct, config, fields);
        this.fast = timeout("mnemos session store", config.redisTimeout());
        this.slow = timeout("mnemos session history", config.slowRedisTimeout());
    }

    /** Nothing is written while Redis may evict session keys ({@link RedisDurability#refuseWritesIfEvicting()}). */
    private void refuseIfEvicting() {
        if (durability != null) {
            durability.refuseWritesIfEvicting();
        }
    }

    private static Guard timeout(String description, Duration limit) {
        return Guard.create().withDescription(description)
                .withTimeout().duration(limit.toMillis(), ChronoUnit.MILLIS).done()
                .build();
    }

    @Override
    public SessionState create(String userId, SessionPatch initial, String actor) {
        return create(userId, initial, actor, null);
    }

    @Override
    public SessionState create(String userId, SessionPatch initial, String actor, Idempotency idem) {
        refuseIfEvicting();
        return fast.get(() -> doCreate(userId, initial, actor, idem), SessionState.class);
    }

    private SessionState doCreate(String userId, SessionPatch initial, String actor, Idempotency idem) {
        SessionIds.require("userId", userId);
        String id = idem == null ? SessionIds.newId() : idem.derivedId("create", userId);
        SessionState state = initialState(id, userId, initial);
        return SessionStoreUnavailableException.guard(() -> {
            boolean reserved = reserve(userId, id, state.createdAt());
            long[] reply = createWrite(reserved, state, new SessionEvent(1, SessionEvent.Type.CREATE,
                    state.createdAt(), actor, null, null, null, state), idem, idem == null ? "" : body(state));
            if (reply[0] == REPLAYED) {
                return fields.read(recorded(id, idem), SessionState.class);
            }
            if (reply[0] < 0) {
                if (reserved) {
                    unreserve(userId, id);
                }
                throw taken(reply, id, idem);
            }
            indexed(userId, id, state.createdAt());
            return state;
        });
    }

    @Override
    public Optional<SessionState> createIfAbsent(String sessionId, String userId, SessionPatch initial, String actor) {
        refuseIfEvicting();
        SessionState state = initialState(SessionIds.require("sessionId", sessionId), userId, initial);
        return fast.get(() -> SessionStoreUnavailableException.guard(
                () -> insert(state, actor) ? Optional.of(state) : Optional.<SessionState> empty()), CREATED);
    }

    private SessionState initialState(String sessionId, String userId, SessionPatch initial) {
        SessionIds.require("userId", userId);
        if (initial != null && !initial.isEmpty()) {
            validator.validate(initial);
        }
        SessionPatch patch = initial == null ? SessionPatch.builder().build() : initial.withIds(SessionIds::newId);
        Instant now = now();
        SessionState empty = new SessionState(sessionId, userId, 1, now, now, SessionState.Status.ACTIVE,
                null, null, List.of(), List.of(), Map.of(), null, List.of(), List.of(), null, null);
        return patch.applyTo(empty, 1, now);
    }

    /**
     * Writes a new session in one script run that first checks its id is free (the check and the
     * write are atomic), then adds it to its user's index. @return false, writing nothing, when the id is taken
     *
     * @throws SessionEndedException when the id belongs to a session that ended and was cleared
     */
    private boolean insert(SessionState state, String actor) {
        boolean reserved = reserve(state.userId(), state.sessionId(), state.createdAt());
        long[] reply = createWrite(reserved, state, new SessionEvent(1, SessionEvent.Type.CREATE,
                state.createdAt(), actor, null, null, null, state), null, "");
        if (reply[0] < 0) {
            if (reserved) {
                unreserve(state.userId(), state.sessionId());
            }
            if (reply[0] == -8) {
                throw new SessionEndedException(state.sessionId());
            }
            return false;
        }
        indexed(state.userId(), state.sessionId(), state.createdAt());
        return true;
    }

    /**
     * Backs out a reservation whose write found the id taken, unless the session holding it is the
     * user's own: concurrent creators of one id (a first call's session) race for the reservation,
     * and the loser must not take the winner's session out of the index.
     */
    private void unreserve(String userId, String sessionId) {
        if (!userId.equals(redis.hash(String.class).hget(SessionKeys.state(sessionId), "userId"))) {
            redis.sortedSet(String.class).zrem(SessionKeys.userSessions(userId), sessionId);
        }
    }

    /**
     * Puts a written session (back) into its user's index: a listing that ran between the
     * reservation and the write saw no state and pruned the id.
     */
    private void indexed(String userId, String sessionId, Instant at) {
        if (direct.enabled()) {
            direct.zadd(SessionKeys.userSessions(userId), at.toEpochMilli(), sessionId);
        } else {
            redis.sortedSet(String.class).zadd(SessionKeys.userSessions(userId), at.toEpochMilli(), sessionId);
        }
    }

    /**
     * Runs a script that answers integers and may write (so it is not sent twice), blocking: over the
     * step's connections when they are used ({@link StepConnections}).
     */
    private long[] longs(SessionScripts script, List<String> keys, List<String> args) {
        return direct.enabled() ? SessionScripts.plainLongs(direct.eval(script, keys, args, false))
                : script.run(redis, keys, args);
    }

    /**
     * Adds the session to its user's index before it is written, so the cap on live sessions holds
     * under concurrent creates: each creator adds itself, then counts, and backs out when over the
     * cap (two racing creators at the cap may both back out; the cap is never exceeded). Ids whose
     * session is gone (expired, deleted, a write that failed) are pruned before refusing.
     *
     * @return whether the id was new in the index
     * @throws TooManySessionsException when the user is at the cap (the index is left as it was)
     */
    private boolean reserve(String userId, String sessionId, Instant at) {
        String key = SessionKeys.userSessions(userId);
        var index = redis.sortedSet(String.class);
        long[] reply = longs(RESERVE, List.of(key),
                List.of(Long.toString(at.toEpochMilli()), sessionId, Long.toString(userIndexTtl())));
        boolean added = reply[0] == 1;
        if (added && reply[1] > config.maxLivePerUser()) {
            List<String> indexed = index.zrange(key, 0, -1);
            List<Boolean> live = existing(indexed);
            for (int i = 0; i < indexed.size(); i++) {
                if (!live.get(i) && !indexed.get(i).equals(sessionId)) {
                    index.zrem(key, indexed.get(i));
                }
            }
            if (index.zcard(key) > config.maxLivePerUser()) {
                index.zrem(key, sessionId);
                throw new TooManySessionsException(userId, config.maxLivePerUser());
            }
        }
        return added;
    }

    /** The first result recorded for {@code idem}. @throws IdempotencyKeyReusedException when its request differed */
    private String recorded(String sessionId, Idempotency idem) {
        String record = awaited(reactive.hash(String.class).hget(SessionKeys.idempotency(sessionId), idem.key()));
        if (record == null) {
            throw new IllegalStateException("no idempotency record of " + idem.key() + " in session " + sessionId);
        }
        int split = record.indexOf('\n');
        if (!record.substring(0, split).equals(idem.fingerprint())) {
            throw new IdempotencyKeyReusedException(idem.key());
        }
        return record.substring(split + 1);
    }

    /** A keyed write that already has its record answers without touching anything else; else null. */
    private String priorResult(String sessionId, Idempotency idem) {
        if (idem == null) {
            return null;
        }
        return SessionStoreUnavailableException.guard(() -> redis.hash(String.class)
                .hexists(SessionKeys.idempotency(sessionId), idem.key()) ? recorded(sessionId, idem) : null);
    }

    private String body(SessionState state) {
        return fields.write(state);
    }

    @Override
    public String owner(String sessionId) {
        return fast.get(() -> doOwner(sessionId), String.class);
    }

    private String doOwner(String sessionId) {
        String userId = SessionStoreUnavailableException
                .guard(() -> redis.hash(String.class).hget(SessionKeys.state(sessionId), "userId"));
        if (userId == null) {
            throw new SessionNotFoundException(sessionId);
        }
        return userId;
    }

    private void requireOwner(String sessionId, String owner) {
        if (!owner.equals(doOwner(sessionId))) {
            throw new SessionNotFoundException(sessionId);
        }
    }

    @Override
    public SessionState get(String sessionId) {
        return load(sessionId, -1);
    }

    @Override
    public SessionState recent(String sessionId, int latestPlans) {
        return load(sessionId, Math.max(0, latestPlans));
    }

    /** A blocking read: over the step's own connections when they are used ({@link StepConnections}). */
    private SessionState load(String sessionId, int latestPlans) {
        if (direct.enabled()) {
            return loaded(sessionId,
                    SessionScripts.plainPairs(direct.eval(LOAD, loadKeys(sessionId), loadArgs(latestPlans), true)));
        }
        return loaded(sessionId, SessionScripts.pairs(awaited(loadCall(sessionId, latestPlans))));
    }

    /**
     * The session and {@code key} in one round trip: over the step's connections a pipeline of the load
     * script and a GET; on the Quarkus client both sent at once.
     */
    @Override
    public Along recentAlong(String sessionId, int latestPlans, String key) {
        return recentIfChanged(sessionId, latestPlans, key, null);
    }

    /** The load script told the version {@code known} holds: it answers {@code '='} alone while the session is at it. */
    @Override
    public Along recentIfChanged(String sessionId, int latestPlans, String key, SessionState known) {
        return recentIfChanged(sessionId, latestPlans, key, known, null);
    }

    /** Over the step's own connections, {@code meanwhile} (null: nothing) runs while Redis answers. */
    @Override
    public Along recentIfChanged(String sessionId, int latestPlans, String key, SessionState known, Runnable meanwhile) {
        List<String> keys = loadKeys(sessionId);
        int plans = Math.max(0, latestPlans);
        List<String> args = known == null ? loadArgs(plans)
                : List.of(Integer.toString(plans), Long.toString(known.version()),
                        Long.toString(known.createdAt().toEpochMilli()));
        if (direct.enabled()) {
            if (key == null) {
                return new Along(loaded(sessionId, direct.evalMeanwhile(LOAD, keys, args, meanwhile), known), false,
                        null);
            }
            SessionScripts.Along replies = direct.evalAlong(LOAD, keys, args, key, meanwhile);
            return new Along(loaded(sessionId, replies.reply(), known), replies.answered(), replies.value());
        }
        if (meanwhile != null) {
            // the Quarkus client sends on subscribing, which is waiting for the answer: the work goes first
            SessionScripts.aside(meanwhile);
        }
        Uni<Response> load = LOAD.executeAsync(reactive, keys, args);
        if (key == null) {
            return new Along(loaded(sessionId, awaited(load), known), false, null);
        }
        // a failed GET leaves the session read standing: the caller reads the key its own way
        Uni<String[]> along = reactive.execute("GET", key).map(r -> new String[] { r == null ? null : r.toString() })
                .onFailure().recoverWithItem((String[]) null);
        var both = awaited(Uni.combine().all().unis(load, along).asTuple());
        return new Along(loaded(sessionId, both.getItem1(), known), both.getItem2() != null,
                both.getItem2() == null ? null : both.getItem2()[0]);
    }

    /** The state a load script's reply over the step's connections holds, or {@code known} when it answered {@code '='}. */
    private SessionState loaded(String sessionId, Object reply, SessionState known) {
        if (known != null && reply instanceof List<?> list && list.size() == 1 && "=".equals(String.valueOf(list.get(0)))) {
            return known;
        }
        return loaded(sessionId, SessionScripts.plainPairs(reply));
    }

    /** The state a load script's reply on the Quarkus client holds, or {@code known} when it answered {@code '='}. */
    private SessionState loaded(String sessionId, Response reply, SessionState known) {
        if (known != null && reply.size() == 1 && "=".equals(reply.get(0).toString())) {
            return known;
        }
        return loaded(sessionId, SessionScripts.pairs(reply));
    }

    private Uni<Response> loadCall(String sessionId, int latestPlans) {
        return LOAD.executeAsync(reactive, loadKeys(sessionId), loadArgs(latestPlans));
    }

    private static List<String> loadKeys(String sessionId) {
        return List.of(SessionKeys.state(sessionId), SessionKeys.plans(sessionId));
    }

    private static List<String> loadArgs(int latestPlans) {
        return List.of(Integer.toString(Math.max(-1, latestPlans)));
    }

    private SessionState loaded(String sessionId, Map<String, String> state) {
        if (state.isEmpty()) {
            throw new SessionNotFoundException(sessionId);
        }
        return fields.state(state);
    }

    @Override
    public PlanPage plans(String sessionId, int from, int limit) {
        return fast.get(() -> doPlans(sessionId, from, limit), PlanPage.class);
    }

    private PlanPage doPlans(String sessionId, int from, int limit) {
        var reply = SessionStoreUnavailableException.guard(() -> PLANS.execute(redis,
                List.of(SessionKeys.state(sessionId), SessionKeys.plans(sessionId)),
                List.of(Integer.toString(from), Integer.toString(Math.max(0, limit)))));
        int total = reply.get(0).toInteger();
        if (total < 0) {
            throw new SessionNotFoundException(sessionId);
        }
        Map<String, String> page = new java.util.HashMap<>();
        for (int i = 0; i + 1 < reply.get(1).size(); i += 2) {
            page.put(reply.get(1).get(i).toString(), reply.get(1).get(i + 1).toString());
        }
        List<PlanVersion> plans = fields.plans(page);
        int last = plans.isEmpty() ? 0 : plans.get(plans.size() - 1).version();
        return new PlanPage(plans, total, !plans.isEmpty() && last < total ? last + 1 : null);
    }

    @Override
    public long write(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion, String note,
            String actor) {
        return apply(sessionId, owner, patch, expectedVersion, note, actor, null).version();
    }

    @Override
    public long write(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion, String note,
            String actor, Idempotency idem) {
        return apply(sessionId, owner, patch, expectedVersion, note, actor, idem).version();
    }

    @Override
    public AppliedPatch apply(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion,
            String note, String actor) {
        return apply(sessionId, owner, patch, expectedVersion, note, actor, null);
    }

    @Override
    public AppliedPatch apply(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion,
            String note, String actor, Idempotency idem) {
        return doWrite(sessionId, owner, patch, expectedVersion, note, actor, idem, null);
    }

    @Override
    public AppliedPatch apply(String sessionId, String owner, SessionPatch patch, long expectedVersion, String note,
            String actor, Idempotency idem, StepTraceEntry trace) {
        return doWrite(sessionId, owner, patch, OptionalLong.of(expectedVersion), note, actor, idem, trace);
    }

    private AppliedPatch doWrite(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion,
            String note, String actor, Idempotency idem, StepTraceEntry trace) {
        refuseIfEvicting();
        Step step = step(patch, expectedVersion, note, actor, trace);
        long[] reply = patchReply(sessionId, owner, expectedVersion, step.event(), step.ops(), step.at(), idem);
        if (reply[0] == REPLAYED) {
            // the first write's patch had other generated ids: report no time, so nothing is rebuilt from this one
            return new AppliedPatch(replayedVersion(sessionId, idem), step.patch(), null);
        }
        return new AppliedPatch(outcome(sessionId, reply, expectedVersion.orElse(-1)), step.patch(), step.at());
    }

    /** A validated patch with its generated ids, its time, its replay event and its script operations. */
    private record Step(SessionPatch patch, Instant at, SessionEvent event, List<String> ops) {
    }

    private Step step(SessionPatch patch, OptionalLong expectedVersion, String note, String actor,
            StepTraceEntry trace) {
        validator.validate(patch);
        if (expectedVersion.isPresent() && expectedVersion.getAsLong() < 1) {
            throw new InvalidPatchException("expectedVersion", "a version of 1 or more");
        }
        SessionPatch withIds = patch.withIds(SessionIds::newId);
        Instant at = now();
        // the plan's content is stored once, as its body; the log entry refers to it (session-patch.lua)
        SessionEvent event = new SessionEvent(0, SessionEvent.Type.PATCH, at, actor, note, withIds.withoutPlanContent(),
                null, null);
        List<String> ops = PatchOps.of(withIds, at, fields);
        if (trace != null) {
            // the trace rides on the step's write (session-patch.lua, op T): one round trip, stored with it or not at all
            ops = new ArrayList<>(ops);
            ops.addAll(List.of("T", Integer.toString(trace.retention()), trace.json()));
        }
        return new Step(withIds, at, event, ops);
    }

    /**
     * The step write without blocking: the same script, sent from the calling (event-loop) thread and
     * bounded by {@link SessionConfig#redisTimeout()}. A keyed write, whose replay needs a second read,
     * takes the blocking path on a worker thread.
     */
    @Override
    public Uni<AppliedPatch> applyAsync(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion,
            String note, String actor, Idempotency idem) {
        if (idem != null) {
            return SessionStore.super.applyAsync(sessionId, owner, patch, expectedVersion, note, actor, idem);
        }
        Step step;
        try {
            refuseIfEvicting();
            step = step(patch, expectedVersion, note, actor, null);
        } catch (RuntimeException e) {
            return Uni.createFrom().failure(e);
        }
        long expected = expectedVersion.orElse(-1);
        return bounded(patchCall(sessionId, owner, expectedVersion, step.event(), step.ops(), step.at(), null))
                .chain(reply -> {
                    long[] result = SessionScripts.longs(reply);
                    if (result[0] == NEEDS_BYTES) {
                        // nothing was written: the blocking path asks the user's budget for bytes and writes
                        return onWorker(sessionId, owner, patch, expectedVersion, note, actor);
                    }
                    return Uni.createFrom()
                            .item(new AppliedPatch(outcome(sessionId, result, expected), step.patch(), step.at()));
                });
    }

    private Uni<AppliedPatch> onWorker(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion,
            String note, String actor) {
        return SessionStore.super.applyAsync(sessionId, owner, patch, expectedVersion, note, actor, null);
    }

    /** The current state without blocking, with its newest {@code latestPlans} plan versions (negative: all). */
    @Override
    public Uni<SessionState> recentAsync(String sessionId, int latestPlans) {
        return bounded(loadCall(sessionId, latestPlans)).map(reply -> loaded(sessionId, SessionScripts.pairs(reply)));
    }

    /**
     * A non-blocking Redis call bounded by {@link SessionConfig#redisTimeout()}; Redis failures as
     * {@link SessionStoreUnavailableException}.
     */
    private <T> Uni<T> bounded(Uni<T> call) {
        return unavailable(call.ifNoItem().after(config.redisTimeout()).failWith(this::timedOut));
    }

    /**
     * Waits on the calling thread for one Redis call, at most {@link SessionConfig#redisTimeout()}; Redis
     * failures as {@link SessionStoreUnavailableException}. The calls of every step wait this way instead of
     * through a fault-tolerance guard: the Redis client is asynchronous underneath, so the wait itself can
     * be bounded, while a guard's synchronous timeout schedules a task on its timer thread for every call
     * (about 0.02 ms more per call on two cores, see the interceptor benchmark).
     */
    private <T> T awaited(Uni<T> call) {
        try {
            return unavailable(call).await().atMost(config.redisTimeout());
        } catch (io.smallrye.mutiny.TimeoutException e) {
            throw timedOut();
        }
    }

    private <T> Uni<T> unavailable(Uni<T> call) {
        return call.onFailure(e -> !(e instanceof TimeoutException))
                .transform(e -> new SessionStoreUnavailableException("Redis did not answer: " + e.getMessage(), e));
    }

    private TimeoutException timedOut() {
        return new TimeoutException(
                "mnemos session store: no answer from Redis within " + config.redisTimeout().toMillis() + " ms");
    }

    @Override
    public SessionState at(String sessionId, long version) {
        return slow.get(() -> doAt(sessionId, version), SessionState.class);
    }

    @Override
    public SessionState at(String sessionId, long version, int latestPlans) {
        return slow.get(() -> log.stateAt(sessionId, version, Math.max(-1, latestPlans)).state(), SessionState.class);
    }

    private SessionState doAt(String sessionId, long version) {
        return log.stateAt(sessionId, version, -1).state();
    }

    @Override
    public List<SessionEvent> events(String sessionId, long fromVersion, int limit) {
        return slow.get(() -> SessionStoreUnavailableException.guard(
                () -> log.read(sessionId, Math.max(1, fromVersion) + "-0", "+", limit)), EVENTS);
    }

    @Override
    public SessionState rollback(String sessionId, long toVersion, OptionalLong expectedVersion, String actor) {
        return rollback(sessionId, toVersion, expectedVersion, actor, null);
    }

    @Override
    public SessionState rollback(String sessionId, long toVersion, OptionalLong expectedVersion, String actor,
            Idempotency idem) {
        refuseIfEvicting();
        return slow.get(() -> doRollback(sessionId, toVersion, expectedVersion, actor, idem), SessionState.class);
    }

    private SessionState doRollback(String sessionId, long toVersion, OptionalLong expectedVersion, String actor,
            Idempotency idem) {
        String prior = priorResult(sessionId, idem);
        if (prior != null) {
            return fields.read(prior, SessionState.class);
        }
        RedisReplayLog.At target = log.stateAt(sessionId, toVersion, -1);
        Instant at = now();
        long base = expectedVersion.orElse(target.current());
        SessionState result = rewritten(target.state(), base + 1, at);
        try {
            long[] reply = SessionStoreUnavailableException.guard(() -> rewrite("rewrite", result, OptionalLong.of(base),
                    new SessionEvent(0, SessionEvent.Type.ROLLBACK, at, actor, null, null, toVersion, result), idem,
                    idem == null ? "" : body(result)));
            if (reply[0] == REPLAYED) {
                return fields.read(SessionStoreUnavailableException.guard(() -> recorded(sessionId, idem)),
                        SessionState.class);
            }
        } catch (StaleVersionException e) {
            if (expectedVersion.isPresent()) {
                throw e;
            }
            return doRollback(sessionId, toVersion, expectedVersion, actor, idem);
        }
        return result;
    }

    @Override
    public SessionState fork(String sessionId, long fromVersion, String actor) {
        return fork(sessionId, fromVersion, actor, null);
    }

    @Override
    public SessionState fork(String sessionId, long fromVersion, String actor, Idempotency idem) {
        return slow.get(() -> doFork(sessionId, fromVersion, actor, idem, null), SessionState.class);
    }

    @Override
    public SessionState fork(String sessionId, long fromVersion, String actor, Idempotency idem, String owner) {
        return slow.get(() -> doFork(sessionId, fromVersion, actor, idem, owner), SessionState.class);
    }

    /** With an {@code owner}, another user's session fails as a missing one, before anything is written or answered. */
    private SessionState doFork(String sessionId, long fromVersion, String actor, Idempotency idem, String owner) {
        refuseIfEvicting();
        String forkId = idem == null ? SessionIds.newId() : idem.derivedId("fork", sessionId);
        if (owner != null && idem != null) {
            requireOwner(sessionId, owner);
        }
        String prior = priorResult(forkId, idem);
        if (prior != null) {
            return fields.read(prior, SessionState.class);
        }
        SessionState source;
        try {
            source = doAt(sessionId, fromVersion);
        } catch (RuntimeException e) {
            if (owner != null) {
                requireOwner(sessionId, owner);
            }
            throw e;
        }
        if (owner != null && !owner.equals(source.userId())) {
            throw new SessionNotFoundException(sessionId);
        }
        Instant now = now();
        SessionState fork = new SessionState(forkId, source.userId(), 1, now, now,
                SessionState.Status.ACTIVE, source.goal(), source.context(), source.constraints(),
                source.openQuestions(), source.collected(), source.stepPointer(), source.plans(),
                source.observations(), source.summary(), new ForkOrigin(sessionId, fromVersion));
        return SessionStoreUnavailableException.guard(() -> {
            boolean reserved = reserve(fork.userId(), forkId, now);
            long[] reply = createWrite(reserved, fork,
                    new SessionEvent(1, SessionEvent.Type.FORK, now, actor, null, null, fromVersion, fork), idem,
                    idem == null ? "" : body(fork));
            if (reply[0] == REPLAYED) {
                return fields.read(recorded(forkId, idem), SessionState.class);
            }
            if (reply[0] < 0) {
                if (reserved) {
                    unreserve(fork.userId(), forkId);
                }
                throw taken(reply, forkId, idem);
            }
            indexed(fork.userId(), forkId, now);
            return fork;
        });
    }

    @Override
    public SessionState end(String sessionId, String actor) {
        return fast.get(() -> doEnd(sessionId, actor), SessionState.class);
    }

    private SessionState doEnd(String sessionId, String actor) {
        SessionState current = load(sessionId, -1);
        if (current.status() == SessionState.Status.ENDED) {
            return current;
        }
        Instant at = now();
        SessionEvent event = new SessionEvent(0, SessionEvent.Type.END, at, actor, null, null, null, null);
        patch(sessionId, null, OptionalLong.empty(), event, List.of("S", "status", SessionState.Status.ENDED.name()), at,
                null);
        return load(sessionId, -1);
    }

    @Override
    public void delete(String sessionId) {
        clear(sessionId, false);
    }

    @Override
    public void retire(String sessionId) {
        clear(sessionId, true);
    }

    /** Removes the session's keys and its id from its user's index; {@code ended}: leaves the ended marker. */
    private void clear(String sessionId, boolean ended) {
        fast.get(() -> SessionStoreUnavailableException.guard(() -> {
            String userId = redis.hash(String.class).hget(SessionKeys.state(sessionId), "userId");
            if (ended) {
                RETIRE.execute(redis, SessionKeys.allAndEnded(sessionId), List.of(Long.toString(config.ttl().toMillis())));
            } else {
                redis.key().del(SessionKeys.all(sessionId).toArray(String[]::new));
            }
            if (userId != null) {
                redis.sortedSet(String.class).zrem(SessionKeys.userSessions(userId), sessionId);
                budget(userId, "release", sessionId, 0);
            }
            return null;
        }), Void.class);
    }

    @Override
    public List<String> liveSessions(String userId) {
        return fast.get(() -> SessionStoreUnavailableException.guard(() -> {
            String key = SessionKeys.userSessions(userId);
            List<String> indexed = redis.sortedSet(String.class).zrange(key, 0, -1);
            List<Boolean> live = existing(indexed);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < indexed.size(); i++) {
                if (live.get(i)) {
                    ids.add(0, indexed.get(i));
                } else {
                    redis.sortedSet(String.class).zrem(key, indexed.get(i));
                }
            }
            return ids;
        }), IDS);
    }

    /**
     * A page walks the user's index newest first from a position (creation time, id), so each page
     * costs a bounded number of commands however many sessions the user has. Ids whose session is
     * gone are pruned on the way. A position is {@code <epochMillis>:<sessionId>}.
     */
    @Override
    public SessionPage liveSessions(String userId, String after, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be 1 or more");
        }
        Position from = after == null ? null : Position.parse(after);
        return fast.get(() -> SessionStoreUnavailableException.guard(() -> page(userId, from, limit)), PAGE);
    }

    private static final TypeLiteral<SessionPage> PAGE = new TypeLiteral<>() {
    };

    private record Position(long score, String id) {

        static Position parse(String text) {
            int colon = text.indexOf(':');
            try {
                return new Position(Long.parseLong(text.substring(0, colon)),
                        SessionIds.require("cursor", text.substring(colon + 1)));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("not a session list position: " + text);
            }
        }

        @Override
        public String toString() {
            return score + ":" + id;
        }
    }

    private SessionPage page(String userId, Position from, int limit) {
        String key = SessionKeys.userSessions(userId);
        var index = redis.sortedSet(String.class);
        List<String> alive = new ArrayList<>();
        Position position = from;
        while (alive.size() <= limit) {
            int want = limit + 1 - alive.size();
            List<String> batch = after(key, position, want);
            java.util.OptionalDouble lastScore = batch.isEmpty() ? java.util.OptionalDouble.empty()
                    : index.zscore(key, batch.get(batch.size() - 1));
            List<Boolean> live = existing(batch);
            for (int i = 0; i < batch.size() && alive.size() <= limit; i++) {
                if (live.get(i)) {
                    alive.add(batch.get(i));
                } else {
                    index.zrem(key, batch.get(i));
                }
            }
            if (batch.size() < want) {
                break;
            }
            String last = batch.get(batch.size() - 1);
            position = new Position(lastScore.isPresent() ? (long) lastScore.getAsDouble()
                    : position == null ? Long.MAX_VALUE : position.score(), last);
        }
        if (alive.size() <= limit) {
            return new SessionPage(alive, null);
        }
        String lastShown = alive.get(limit - 1);
        long score = (long) index.zscore(key, lastShown).orElse(0);
        return new SessionPage(List.copyOf(alive.subList(0, limit)), new Position(score, lastShown).toString());
    }

    /**
     * Which of {@code ids} still have a session state: one {@code EXISTS} each (their keys live in
     * different slots), all sent at once, so a page waits for one round trip, not one per id.
     */
    private List<Boolean> existing(List<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        List<Uni<Boolean>> checks = ids.stream().map(id -> reactive.key().exists(SessionKeys.state(id))).toList();
        return awaited(Uni.join().all(checks).andFailFast());
    }

    /** Up to {@code n} ids of the index after {@code position}, newest first (ties by id, descending). */
    private List<String> after(String key, Position position, int n) {
        List<String> ids = new ArrayList<>(n);
        String max = "+inf";
        if (position != null) {
            String score = Long.toString(position.score());
            for (var member : redis.execute("ZREVRANGEBYSCORE", key, score, score)) {
                String id = member.toString();
                if (id.compareTo(position.id()) < 0 && ids.size() < n) {
                    ids.add(id);
                }
            }
            max = "(" + score;
        }
        if (ids.size() < n) {
            for (var member : redis.execute("ZREVRANGEBYSCORE", key, max, "-inf", "LIMIT", "0",
                    Integer.toString(n - ids.size()))) {
                ids.add(member.toString());
            }
        }
        return ids;
    }

    private long patch(String sessionId, String owner, OptionalLong expected, SessionEvent event, List<String> ops,
            Instant at, Idempotency idem) {
        long[] reply = patchReply(sessionId, owner, expected, event, ops, at, idem);
        if (reply[0] == REPLAYED) {
            return replayedVersion(sessionId, idem);
        }
        return outcome(sessionId, reply, expected.orElse(-1));
    }

    private long replayedVersion(String sessionId, Idempotency idem) {
        return Long.parseLong(SessionStoreUnavailableException.guard(() -> recorded(sessionId, idem)));
    }

    /**
     * Runs session-patch.lua, blocking: over the step's own connections when they are used ({@link StepConnections}).
     *
     * @return its reply: {version}, {@link #REPLAYED} or {errorCode, detail}
     */
    private long[] patchReply(String sessionId, String owner, OptionalLong expected, SessionEvent event,
            List<String> ops, Instant at, Idempotency idem) {
        long[] reply = patchOnce(sessionId, owner, expected, event, ops, at, idem);
        for (int i = 0; reply[0] == NEEDS_BYTES && i < 3; i++) {
            topUp(sessionId, owner, reply[1]);
            reply = patchOnce(sessionId, owner, expected, event, ops, at, idem);
        }
        return reply;
    }

    private long[] patchOnce(String sessionId, String owner, OptionalLong expected, SessionEvent event,
            List<String> ops, Instant at, Idempotency idem) {
        if (direct.enabled()) {
            return SessionScripts.plainLongs(direct.eval(PATCH, SessionKeys.all(sessionId),
                    patchArgs(owner, expected, event, ops, at, idem), false));
        }
        return SessionScripts.longs(awaited(patchCall(sessionId, owner, expected, event, ops, at, idem)));
    }

    private Uni<Response> patchCall(String sessionId, String owner, OptionalLong expected, SessionEvent event,
            List<String> ops, Instant at, Idempotency idem) {
        return PATCH.executeAsync(reactive, SessionKeys.all(sessionId), patchArgs(owner, expected, event, ops, at, idem));
    }

    private List<String> patchArgs(String owner, OptionalLong expected, SessionEvent event, List<String> ops, Instant at,
            Idempotency idem) {
        List<String> args = new ArrayList<>(ops.size() + 10);
        args.add(Long.toString(expected.orElse(-1)));
        args.add(Long.toString(config.ttl().toMillis()));
        args.add(fields.write(event));
        args.add(Integer.toString(config.checkpointEvery()));
        args.add(Integer.toString(config.historyRetention()));
        args.add(Long.toString(at.toEpochMilli()));
        args.add(owner == null ? "" : owner);
        args.add(Long.toString(config.maxSessionBytes()));
        args.add(budgeted() ? "1" : "0");
        args.addAll(ops);
        idempotencyArgs(args, idem, "");
        return args;
    }

    /** The script's last three arguments: the key, the request's fingerprint and the result to record. */
    private static void idempotencyArgs(List<String> args, Idempotency idem, String result) {
        args.add(idem == null ? "" : idem.key());
        args.add(idem == null ? "" : idem.fingerprint());
        args.add(result);
    }

    /**
     * @return the script's reply: {version}, {-5, 0} when mode is "create" and the session's id is
     *         taken, {@link #REPLAYED} when the key has a record (both: nothing was written)
     */
    private long[] rewrite(String mode, SessionState state, OptionalLong expected, SessionEvent event, Idempotency idem,
            String result) {
        List<String> args = new ArrayList<>();
        args.add(mode);
        args.add(Long.toString(expected.orElse(-1)));
        args.add(Long.toString(config.ttl().toMillis()));
        // the log entry names the plans' bodies (session-rewrite.lua): its event leaves their content out
        args.add(fields.write(withoutPlanContent(event)));
        args.add(Integer.toString(config.checkpointEvery()));
        args.add(Integer.toString(config.historyRetention()));
        args.add(Long.toString(config.maxSessionBytes()));
        args.add(budgeted() ? "0" : "");
        fields.fields(state).forEach((field, value) -> {
            args.add(field);
            args.add(value);
        });
        idempotencyArgs(args, idem, result);
        boolean creating = mode.equals("create");
        if (creating && budgeted()) {
            args.set(GRANT_ARG, Long.toString(grant(state.userId(), state.sessionId(), estimate(args))));
        }
        long[] reply;
        try {
            reply = rewriteGranted(creating, state, args);
        } catch (UserBytesExceededException e) {
            returnGrant(creating, state, args);
            throw e;
        }
        if (reply[0] < 0) {
            // nothing was written: a new session's grant goes back to its user
            returnGrant(creating, state, args);
        }
        if (reply[0] == -5 || reply[0] == -8 || reply[0] == REPLAYED) {
            return reply;
        }
        outcome(state.sessionId(), reply, expected.orElse(-1));
        return reply;
    }

    /** Writes a new session; one too large or over its user's budget leaves the user's index as it was. */
    private long[] createWrite(boolean reserved, SessionState state, SessionEvent event, Idempotency idem,
            String result) {
        try {
            return rewrite("create", state, OptionalLong.empty(), event, idem, result);
        } catch (SessionTooLargeException | UserBytesExceededException e) {
            if (reserved) {
                unreserve(state.userId(), state.sessionId());
            }
            throw e;
        }
    }

    /**
     * Runs session-rewrite.lua, asking the user's budget for more bytes while the session needs them: a
     * new session's grant grows in {@code args} (its grant argument), a live session's is recorded in it.
     */
    private long[] rewriteGranted(boolean creating, SessionState state, List<String> args) {
        long[] reply = longs(REWRITE, SessionKeys.allAndEnded(state.sessionId()), args);
        for (int i = 0; reply[0] == NEEDS_BYTES && i < 3; i++) {
            if (creating) {
                long more = grant(state.userId(), state.sessionId(), reply[1]);
                args.set(GRANT_ARG, Long.toString(Long.parseLong(args.get(GRANT_ARG)) + more));
            } else {
                topUp(state.sessionId(), state.userId(), reply[1]);
            }
            reply = longs(REWRITE, SessionKeys.allAndEnded(state.sessionId()), args);
        }
        return reply;
    }

    /** Gives back to the user what a new session that was not written had been granted. */
    private void returnGrant(boolean creating, SessionState state, List<String> args) {
        if (creating && budgeted()) {
            budget(state.userId(), "return", state.sessionId(), Long.parseLong(args.get(GRANT_ARG)));
        }
    }

    /** Index of session-rewrite.lua's grant argument. */
    private static final int GRANT_ARG = 7;

    /** What a new session's arguments will take in Redis, with room for the ids and names the script adds. */
    private static long estimate(List<String> args) {
        long bytes = 1024;
        for (int i = 3; i < args.size(); i++) {
            bytes += args.get(i).length() + 16;
        }
        return bytes;
    }

    private boolean budgeted() {
        return config.maxUserBytes() > 0;
    }

    /**
     * Grants the session at least {@code bytes} (at least {@link #GRANT_STEP}) from its user's budget. A
     * user over the budget first has the grants of their sessions that are gone (expired, deleted) taken
     * back. @return the bytes granted
     *
     * @throws UserBytesExceededException when the budget cannot cover them (nothing was granted)
     */
    private long grant(String userId, String sessionId, long bytes) {
        long amount = Math.max(bytes, GRANT_STEP);
        if (budget(userId, "grant", sessionId, amount)) {
            return amount;
        }
        String key = SessionKeys.userBytes(userId);
        List<String> ids = redis.hash(String.class).hkeys(key).stream().filter(id -> !id.startsWith("#")).toList();
        List<Boolean> live = existing(ids);
        for (int i = 0; i < ids.size(); i++) {
            if (!live.get(i)) {
                budget(userId, "release", ids.get(i), 0);
            }
        }
        if (budget(userId, "grant", sessionId, amount)) {
            return amount;
        }
        throw new UserBytesExceededException(userId, config.maxUserBytes());
    }

    /** Runs user-bytes.lua. @return whether it was done (false: a grant over the budget) */
    private boolean budget(String userId, String op, String sessionId, long bytes) {
        return longs(BUDGET, List.of(SessionKeys.userBytes(userId)), List.of(op, sessionId, Long.toString(bytes),
                Long.toString(config.maxUserBytes()), Long.toString(userIndexTtl())))[0] == 1;
    }

    /** Grants a live session {@code bytes} more from its user's budget, and records the grant in the session. */
    private void topUp(String sessionId, String owner, long bytes) {
        String userId = owner != null ? owner : doOwner(sessionId);
        long amount = grant(userId, sessionId, bytes);
        if (longs(GRANTED, List.of(SessionKeys.state(sessionId), SessionKeys.snapshots(sessionId)),
                List.of(Long.toString(amount)))[0] == 0) {
            budget(userId, "return", sessionId, amount);
        }
    }

    private static SessionEvent withoutPlanContent(SessionEvent event) {
        if (event.state() == null || event.state().plans().isEmpty()) {
            return event;
        }
        SessionState state = event.state().withPlans(event.state().plans().stream()
                .map(p -> p.withContent(null)).toList());
        return new SessionEvent(event.version(), event.type(), event.at(), event.actor(), event.note(), event.patch(),
                event.toVersion(), state);
    }

    /** Why a create under {@code id} wrote nothing: the id is live (-5), or it ended and was archived (-8). */
    private static RuntimeException taken(long[] reply, String id, Idempotency idem) {
        if (reply[0] == -8) {
            return idem == null ? new SessionEndedException(id) : new IdempotencyKeyEndedException(idem.key(), id);
        }
        return new IllegalStateException("session " + id + " already exists");
    }

    private long outcome(String sessionId, long[] reply, long expected) {
        if (reply[0] > 0) {
            return reply[0];
        }
        throw switch ((int) reply[0]) {
            case -1 -> new StaleVersionException(sessionId, expected, reply[1]);
            case -2 -> new InvalidPatchException("patch.evaluatePlan.version",
                    "an existing plan version; version " + reply[1] + " does not exist");
            case -3 -> new SessionEndedException(sessionId);
            case -4 -> new SessionNotFoundException(sessionId);
            case -10 -> new SessionTooLargeException(sessionId, reply[1], config.maxSessionBytes());
            case -9 -> new IllegalStateException("session " + sessionId + " still needs " + reply[1]
                    + " bytes after three grants from its user's budget (concurrent writes took them)");
            default -> new IllegalStateException("session " + sessionId + " already exists");
        };
    }

    private static SessionState rewritten(SessionState s, long version, Instant at) {
        return new SessionState(s.sessionId(), s.userId(), version, s.createdAt(), at, SessionState.Status.ACTIVE,
                s.goal(), s.context(), s.constraints(), s.openQuestions(), s.collected(), s.stepPointer(), s.plans(),
                s.observations(), s.summary(), s.forkedFrom());
    }

    /**
     * The user's index lives longer than one session's TTL: step writes keep a session alive but
     * (being single-slot scripts) cannot refresh a key in the user's slot; listing prunes ids whose
     * session is gone.
     */
    private long userIndexTtl() {
        return config.ttl().toMillis() * 7;
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

}
