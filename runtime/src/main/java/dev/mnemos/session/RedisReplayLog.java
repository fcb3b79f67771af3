package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.vertx.mutiny.redis.client.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A session's replay stream ({@link SessionKeys#events}, entry id = version) and its
 * checkpoints: reads events back and rebuilds the state at any version within the retention window
 * from the nearest checkpoint at or below it plus at most {@code checkpointEvery - 1} events after
 * it, read in one round trip ({@code session-at.lua}) without loading the current state first.
 */
final class RedisReplayLog {

    private static final SessionScripts AT = SessionScripts.load("session-at.lua");

    private final RedisDataSource redis;
    private final SessionConfig config;
    private final StateFields fields;

    RedisReplayLog(RedisDataSource redis, SessionConfig config, StateFields fields) {
        this.redis = redis;
        this.config = config;
        this.fields = fields;
    }

    /** A past state, and the session's current version when it was read. */
    record At(SessionState state, long current) {
    }

    /**
     * The state at {@code version} with its newest {@code latestPlans} plan versions (-1: all).
     *
     * @throws SessionNotFoundException when there is no live session of that id
     * @throws VersionNotFoundException outside 1..current
     * @throws VersionGoneException older than the retention window
     */
    At stateAt(String id, long version, int latestPlans) {
        Response reply = SessionStoreUnavailableException.guard(() -> AT.execute(redis,
                List.of(SessionKeys.state(id), SessionKeys.snapshots(id), SessionKeys.events(id), SessionKeys.plans(id)),
                List.of(Long.toString(version), Integer.toString(config.checkpointEvery()),
                        Integer.toString(config.historyRetention()), Integer.toString(latestPlans))));
        long code = reply.get(0).toLong();
        long detail = reply.get(1).toLong();
        if (code == -4) {
            throw new SessionNotFoundException(id);
        } else if (code == -6) {
            throw new VersionNotFoundException(id, version, detail);
        } else if (code == -7) {
            throw new VersionGoneException(id, version, detail);
        }
        Map<String, String> checkpoint = SessionScripts.pairs(reply.get(2));
        SessionState base = checkpoint.isEmpty() ? null : fields.state(checkpoint);
        Map<String, String> bodies = SessionScripts.pairs(reply.get(4));
        List<SessionEvent> events = new ArrayList<>();
        for (Response entry : reply.get(3)) {
            Response f = entry.get(1);
            String plan = f.size() > 3 && "p".equals(f.get(2).toString()) ? f.get(3).toString() : null;
            events.add(event(entry.get(0).toString(), f.get(1).toString(), plan == null ? null : bodies.get(plan)));
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

    List<SessionEvent> read(String sessionId, String from, String to, int limit) {
        List<StreamMessage<String, String, String>> entries = redis.stream(String.class).xrange(SessionKeys.events(sessionId),
                StreamRange.of(from, to), limit);
        List<String> plans = entries.stream().map(e -> e.payload().get("p")).filter(Objects::nonNull)
                .map(p -> "b:" + p).toList();
        Map<String, String> bodies = plans.isEmpty() ? Map.of()
                : redis.hash(String.class).hmget(SessionKeys.plans(sessionId), plans.toArray(String[]::new));
        List<SessionEvent> events = new ArrayList<>(entries.size());
        for (StreamMessage<String, String, String> entry : entries) {
            String plan = entry.payload().get("p");
            events.add(event(entry.id(), entry.payload().get("e"), plan == null ? null : bodies.get("b:" + plan)));
        }
        return events;
    }

    /**
     * An event from its log entry. A step that added a plan refers to the plan's stored body
     * ({@code planBody}) instead of holding its content; events written before that hold it.
     */
    private SessionEvent event(String id, String json, String planBody) {
        SessionEvent e = fields.read(json, SessionEvent.class);
        long version = Long.parseLong(id.substring(0, id.indexOf('-')));
        SessionPatch patch = e.patch();
        if (planBody != null && patch != null && patch.addPlan() != null && patch.addPlan().content() == null) {
            SessionPatch.NewPlan plan = patch.addPlan();
            patch = patch.withPlan(new SessionPatch.NewPlan(fields.planBody(planBody).content(), plan.score(),
                    plan.feedback()));
        }
        return new SessionEvent(version, e.type(), e.at(), e.actor(), e.note(), patch, e.toVersion(), e.state());
    }
}
