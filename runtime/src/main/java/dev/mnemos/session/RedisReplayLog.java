package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's replay stream ({@link SessionKeys#events}, entry id = version) and its history: reads
 * events back and rebuilds the state at any version within the retention window in one round trip
 * ({@code session-at.lua}): the nearest checkpoint at or above the version (else the current state) with
 * the undo records between them applied in Redis, so an old version costs about what a recent one does;
 * for a session written before undo records, its checkpoint at or below the version and the events after it.
 */
final class RedisReplayLog {

    /** The field of a log entry whose event's actor is the session's own, kept once in its snap hash. */
    private static final String OWN_ACTOR = "o";

    private final RedisDataSource redis;
    private final ScriptTransport transport;
    private final SessionConfig config;
    private final StateFields fields;

    RedisReplayLog(RedisDataSource redis, ScriptTransport transport, SessionConfig config, StateFields fields) {
        this.redis = redis;
        this.transport = transport;
        this.config = config;
        this.fields = fields;
    }

    /** A past state, and the session's current version when it was read. */
    record At(SessionState state, long current) {
    }

    /**
     * The state at {@code version} with its newest {@code latestPlans} plan versions (-1: all); {@code userId} opens
     * its sealed texts (null: none are).
     *
     * @throws SessionNotFoundException when there is no live session of that id
     * @throws VersionNotFoundException outside 1..current
     * @throws VersionGoneException older than the retention window
     */
    At stateAt(String id, long version, int latestPlans, String userId) {
        List<String> keys = LuaScript.AT.keys(id);
        List<String> args = new ScriptArgs.At(version, config.checkpointEvery(), config.historyRetention(), latestPlans)
                .argv();
        List<?> reply = (List<?>) transport.read(LuaScript.AT, keys, args);
        long code = ((Number) reply.get(0)).longValue();
        long detail = ((Number) reply.get(1)).longValue();
        if (code < 0) {
            throw ScriptReply.of(code).failure(id, version, detail, config.maxSessionBytes());
        }
        Map<String, String> checkpoint = SessionScripts.plainPairs(reply.get(2));
        SessionState base = checkpoint.isEmpty() ? null : fields.state(checkpoint);
        Map<String, String> bodies = SessionScripts.plainPairs(reply.get(4));
        List<SessionEvent> events = new ArrayList<>();
        for (Object item : (List<?>) reply.get(3)) {
            List<?> entry = (List<?>) item;
            // the state does not depend on who wrote a version: an entry that names the session's actor reads without it
            events.add(event(entry.get(0).toString(), SessionScripts.plainPairs(entry.get(1)), bodies, null, userId));
        }
        if (base == null && (events.isEmpty() || events.get(0).state() == null)) {
            throw new VersionGoneException(id, version, Math.max(1, detail - config.historyRetention() + 1));
        }
        SessionState state = base;
        for (SessionEvent event : events) {
            state = apply(state, event, latestPlans >= 0);
        }
        return new At(state.newestPlans(latestPlans), detail);
    }

    /**
     * Replays one event. Started from a checkpoint with only its newest plans, an evaluation of an
     * older plan is skipped: that plan stays older than the newest ones the caller asked for.
     */
    private static SessionState apply(SessionState state, SessionEvent event, boolean partialPlans) {
        try {
            return SessionReplay.apply(state, event);
        } catch (InvalidPatchException e) {
            if (!partialPlans || event.patch() == null) {
                throw e;
            }
            return event.patch().withoutEvaluation().applyTo(state, event.version(), event.at());
        }
    }

    List<SessionEvent> read(String sessionId, String from, String to, int limit, String userId) {
        List<StreamMessage<String, String, String>> entries = redis.stream(String.class).xrange(SessionKeys.events(sessionId),
                StreamRange.of(from, to), limit);
        List<String> ids = entries.stream().flatMap(e -> bodyIds(e.payload()).stream()).distinct().toList();
        Map<String, String> bodies = new HashMap<>();
        if (!ids.isEmpty()) {
            Map<String, String> stored = redis.hash(String.class).hmget(SessionKeys.plans(sessionId),
                    ids.stream().map(id -> "b:" + id).toArray(String[]::new));
            ids.forEach(id -> bodies.put(id, stored.get("b:" + id)));
        }
        String own = entries.stream().anyMatch(e -> e.payload().containsKey(OWN_ACTOR))
                ? redis.hash(String.class).hget(SessionKeys.snapshots(sessionId), "actor")
                : null;
        List<SessionEvent> events = new ArrayList<>(entries.size());
        for (StreamMessage<String, String, String> entry : entries) {
            events.add(event(entry.id(), entry.payload(), bodies, own, userId));
        }
        return events;
    }

    /** The plan bodies a log entry refers to: the plan a step added ({@code p}), the plans of a rewritten state ({@code b}). */
    private static List<String> bodyIds(Map<String, String> entry) {
        List<String> ids = new ArrayList<>();
        if (entry.get("p") != null) {
            ids.add(entry.get("p"));
        }
        if (entry.get("b") != null) {
            ids.addAll(List.of(entry.get("b").split(",")));
        }
        return ids;
    }

    /**
     * An event from its log entry: the event JSON, without its actor, as {@code o} when the actor is the session's own
     * ({@code ownActor}, the snap hash's {@code actor}), else as {@code e} with the actor as {@code a} (none: no actor;
     * {@code replay_entry} in {@code session-common.lua}); entries written before hold their actor in the JSON. A step
     * that added a plan names the plan's stored body ({@code p}); a create, fork or rollback names the bodies of its
     * state's plans ({@code b}, plan by plan, oldest first); their content is taken from {@code bodies} (by body id).
     * Events written before either hold the content themselves.
     */
    private SessionEvent event(String id, Map<String, String> entry, Map<String, String> bodies, String ownActor,
            String userId) {
        boolean own = entry.containsKey(OWN_ACTOR);
        SessionEvent e = fields.event(userId, own ? entry.get(OWN_ACTOR) : entry.get("e"));
        String actor = own ? ownActor : entry.getOrDefault("a", e.actor());
        long version = Long.parseLong(id.substring(0, id.indexOf('-')));
        SessionPatch patch = e.patch();
        String planBody = entry.get("p") == null ? null : bodies.get(entry.get("p"));
        if (planBody != null && patch != null && patch.addPlan() != null && patch.addPlan().content() == null) {
            SessionPatch.NewPlan plan = patch.addPlan();
            patch = patch.withPlan(new SessionPatch.NewPlan(fields.openedPlanBody(userId, planBody).content(), plan.score(),
                    plan.feedback()));
        }
        SessionState state = e.state();
        if (state != null && entry.get("b") != null) {
            state = withPlanContent(state, entry.get("b").split(","), bodies, userId);
        }
        // a stored step leaves its type out (StateFields.StoredEvent)
        SessionEvent.Type type = e.type() == null ? SessionEvent.Type.PATCH : e.type();
        return new SessionEvent(version, type, e.at(), actor, e.note(), patch, e.toVersion(), state);
    }

    /** The state's plans (oldest first) with the content of the bodies {@code ids} names in the same order. */
    private SessionState withPlanContent(SessionState state, String[] ids, Map<String, String> bodies, String userId) {
        List<PlanVersion> plans = state.plans();
        if (plans.size() != ids.length) {
            throw new IllegalStateException("session " + state.sessionId() + ": a log entry names " + ids.length
                    + " plan bodies for " + plans.size() + " plans");
        }
        List<PlanVersion> restored = new ArrayList<>(plans.size());
        for (int i = 0; i < ids.length; i++) {
            PlanVersion p = plans.get(i);
            String body = bodies.get(ids[i]);
            if (p.content() != null || body == null) {
                restored.add(p);
            } else {
                restored.add(p.withContent(fields.openedPlanBody(userId, body).content()));
            }
        }
        return state.withPlans(restored);
    }
}
