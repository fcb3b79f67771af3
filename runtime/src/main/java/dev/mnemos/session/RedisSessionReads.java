package dev.mnemos.session;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads of {@link RedisSessionStore}: a session's current state (whole, or with only its newest plans,
 * in one round trip), its owner, its plan versions, its past versions and its replay log. Blocking reads go
 * over the step's own connections when they are used ({@link StepConnections}).
 */
final class RedisSessionReads {

    private final RedisCalls calls;
    private final StateFields fields;
    private final RedisReplayLog log;

    RedisSessionReads(RedisCalls calls, StateFields fields, RedisReplayLog log) {
        this.calls = calls;
        this.fields = fields;
        this.log = log;
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
        List<String> keys = LuaScript.LOAD.keys(sessionId);
        List<String> args = ScriptArgs.Load.latest(Math.max(-1, latestPlans)).argv();
        if (calls.direct.enabled()) {
            return loaded(sessionId,
                    SessionScripts.plainPairs(calls.direct.eval(LuaScript.LOAD.script(), keys, args, true)));
        }
        return loaded(sessionId,
                SessionScripts.pairs(calls.awaited(LuaScript.LOAD.script().executeAsync(calls.reactive, keys, args))));
    }

    /**
     * {@link SessionStore#recentIfChanged(String, int, String, SessionState, Runnable)}: the session and
     * {@code key} in one round trip (over the step's connections a pipeline of the load script and a GET; on
     * the Quarkus client both sent at once); the load script told the version {@code known} holds answers
     * {@code '='} alone while the session is at it. Over the step's own connections, {@code meanwhile} (null:
     * nothing) runs while Redis answers.
     */
    SessionStore.Along recentIfChanged(String sessionId, int latestPlans, String key, SessionState known,
            Runnable meanwhile) {
        List<String> keys = LuaScript.LOAD.keys(sessionId);
        int plans = Math.max(0, latestPlans);
        List<String> args = (known == null ? ScriptArgs.Load.latest(plans)
                : new ScriptArgs.Load(plans, known.version(), known.createdAt().toEpochMilli())).argv();
        SessionScripts load = LuaScript.LOAD.script();
        if (calls.direct.enabled()) {
            if (key == null) {
                return new SessionStore.Along(
                        loaded(sessionId, calls.direct.evalMeanwhile(load, keys, args, meanwhile), known), false, null);
            }
            SessionScripts.Along replies = calls.direct.evalAlong(load, keys, args, key, meanwhile);
            return new SessionStore.Along(loaded(sessionId, replies.reply(), known), replies.answered(),
                    replies.value());
        }
        if (meanwhile != null) {
            // the Quarkus client sends on subscribing, which is waiting for the answer: the work goes first
            SessionScripts.aside(meanwhile);
        }
        Uni<Response> read = load.executeAsync(calls.reactive, keys, args);
        if (key == null) {
            return new SessionStore.Along(loaded(sessionId, calls.awaited(read), known), false, null);
        }
        // a failed GET leaves the session read standing: the caller reads the key its own way
        Uni<String[]> along = calls.reactive.execute("GET", key)
                .map(r -> new String[] { r == null ? null : r.toString() })
                .onFailure().recoverWithItem((String[]) null);
        var both = calls.awaited(Uni.combine().all().unis(read, along).asTuple());
        return new SessionStore.Along(loaded(sessionId, both.getItem1(), known), both.getItem2() != null,
                both.getItem2() == null ? null : both.getItem2()[0]);
    }

    /** The current state without blocking, with its newest {@code latestPlans} plan versions (negative: all). */
    Uni<SessionState> recentAsync(String sessionId, int latestPlans) {
        return calls.bounded(calls.async(LuaScript.LOAD, sessionId, ScriptArgs.Load.latest(Math.max(-1, latestPlans))
                .argv())).map(reply -> loaded(sessionId, SessionScripts.pairs(reply)));
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

    private SessionState loaded(String sessionId, Map<String, String> state) {
        if (state.isEmpty()) {
            throw new SessionNotFoundException(sessionId);
        }
        return fields.state(state);
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
        List<PlanVersion> plans = fields.plans(page);
        int last = plans.isEmpty() ? 0 : plans.get(plans.size() - 1).version();
        return new PlanPage(plans, total, !plans.isEmpty() && last < total ? last + 1 : null);
    }

    /** The state at {@code version} with its newest {@code latestPlans} plan versions (-1: all). */
    RedisReplayLog.At at(String sessionId, long version, int latestPlans) {
        return log.stateAt(sessionId, version, latestPlans);
    }

    List<SessionEvent> events(String sessionId, long fromVersion, int limit) {
        return SessionStoreUnavailableException
                .guard(() -> log.read(sessionId, Math.max(1, fromVersion) + "-0", "+", limit));
    }
}
