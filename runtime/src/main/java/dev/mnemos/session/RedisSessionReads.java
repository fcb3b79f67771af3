package dev.mnemos.session;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads of {@link RedisSessionStore}: a session's current state (whole, or with only its newest plans,
 * in one round trip), its owner, its plan versions, its past versions and its replay log. The step's reads go
 * through the {@link ScriptTransport}.
 */
final class RedisSessionReads {

    private final RedisCalls calls;
    private final ScriptTransport transport;
    private final StateFields fields;
    private final RedisReplayLog log;
    private final SessionOwners owners;

    RedisSessionReads(RedisCalls calls, ScriptTransport transport, StateFields fields, RedisReplayLog log) {
        this.calls = calls;
        this.transport = transport;
        this.fields = fields;
        this.log = log;
        this.owners = new SessionOwners(this::owner);
    }

    /** The user whose key seals the session's texts, when they are sealed (null when not). */
    String sealingOwner(String sessionId) {
        return fields.sealing() ? owners.owner(sessionId) : null;
    }

    /** The user a live session belongs to. @throws SessionNotFoundException when there is none */
    String owner(String sessionId) {
        String userId = SessionStoreUnavailableException
                .guard(() -> calls.redis.hash(String.class).hget(SessionKeys.state(sessionId), "userId"));
        if (userId == null) {
            throw new SessionNotFoundException(sessionId);
        }
        return userId;
    }

    /** The current state with its newest {@code latestPlans} plan versions (-1: all). */
    SessionState load(String sessionId, int latestPlans) {
        List<String> argv = ScriptArgs.Load.latest(Math.max(-1, latestPlans)).argv();
        return loaded(sessionId, SessionScripts.plainPairs(transport.read(LuaScript.LOAD, LuaScript.LOAD.keys(sessionId),
                argv)));
    }

    /**
     * The current state without blocking, with its newest {@code latestPlans} plan versions (negative: all). Sealed
     * texts open on the calling thread when their owner's data key is in memory, else on a worker thread (the key is
     * read in Postgres), also when it leaves memory while they open.
     */
    Uni<SessionState> recentAsync(String sessionId, int latestPlans) {
        return calls.bounded(calls.async(LuaScript.LOAD, sessionId, ScriptArgs.Load.latest(Math.max(-1, latestPlans))
                .argv())).chain(reply -> {
                    Map<String, String> state = SessionScripts.pairs(reply);
                    if (fields.ready(state.get("userId"))) {
                        try {
                            return Uni.createFrom().item(loaded(sessionId, state, fields.withoutBlocking()));
                        } catch (SessionValues.NotInMemoryException e) {
                            // the owner's data key left memory since ready(): opened on a worker thread, below
                        }
                    }
                    return Uni.createFrom().item(() -> loaded(sessionId, state))
                            .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
                });
    }

    /** The owner of a session whose texts are sealed, when it is known without reading Redis (null when not). */
    String knownOwner(String sessionId) {
        return owners.known(sessionId);
    }

    private SessionState loaded(String sessionId, Map<String, String> state) {
        return loaded(sessionId, state, fields);
    }

    private static SessionState loaded(String sessionId, Map<String, String> state, StateFields opening) {
        if (state.isEmpty()) {
            throw new SessionNotFoundException(sessionId);
        }
        return opening.state(state);
    }

    PlanPage plans(String sessionId, int from, int limit) {
        var reply = SessionStoreUnavailableException.guard(() -> LuaScript.PLANS.script().execute(calls.redis,
                LuaScript.PLANS.keys(sessionId), new ScriptArgs.Plans(from, Math.max(0, limit)).argv()));
        int total = reply.get(0).toInteger();
        if (total == ScriptReply.MISSING.code()) {
            throw new SessionNotFoundException(sessionId);
        }
        Map<String, String> page = new HashMap<>();
        for (int i = 0; i + 1 < reply.get(1).size(); i += 2) {
            page.put(reply.get(1).get(i).toString(), reply.get(1).get(i + 1).toString());
        }
        List<PlanVersion> plans = fields.plans(sealingOwner(sessionId), page);
        int last = plans.isEmpty() ? 0 : plans.get(plans.size() - 1).version();
        return new PlanPage(plans, total, !plans.isEmpty() && last < total ? last + 1 : null);
    }

    /** The state at {@code version} with its newest {@code latestPlans} plan versions (-1: all). */
    RedisReplayLog.At at(String sessionId, long version, int latestPlans) {
        return log.stateAt(sessionId, version, latestPlans, sealingOwner(sessionId));
    }

    List<SessionEvent> events(String sessionId, long fromVersion, int limit) {
        return SessionStoreUnavailableException
                .guard(() -> log.read(sessionId, Math.max(1, fromVersion) + "-0", "+", limit, sealingOwner(sessionId)));
    }
}
