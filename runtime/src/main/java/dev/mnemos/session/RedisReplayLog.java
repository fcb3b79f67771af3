package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * A session's replay stream ({@link SessionKeys#events}, entry id = version) and its
 * checkpoints: reads events back and rebuilds the state at any version within the retention window
 * from the nearest checkpoint plus the events after it.
 */
final class RedisReplayLog {

    private final RedisDataSource redis;
    private final SessionConfig config;
    private final StateFields fields;

    RedisReplayLog(RedisDataSource redis, SessionConfig config, StateFields fields) {
        this.redis = redis;
        this.config = config;
        this.fields = fields;
    }

    /**
     * The state at {@code version}, given the current state.
     *
     * @throws VersionNotFoundException outside 1..current
     * @throws VersionGoneException older than the retention window
     */
    SessionState stateAt(SessionState current, long version) {
        String id = current.sessionId();
        if (version < 1 || version > current.version()) {
            throw new VersionNotFoundException(id, version, current.version());
        }
        long oldest = Math.max(1, current.version() - config.historyRetention() + 1);
        if (version < oldest) {
            throw new VersionGoneException(id, version, oldest);
        }
        if (version == current.version()) {
            return current;
        }
        return SessionStoreUnavailableException.guard(() -> {
            long checkpoint = version / config.checkpointEvery() * config.checkpointEvery();
            String snap = checkpoint < 1 ? null
                    : redis.hash(String.class).hget(SessionKeys.snapshots(id), Long.toString(checkpoint));
            SessionState base = snap == null ? null : fields.state(fields.read(snap, StringMap.class));
            String from = base == null ? "-" : (checkpoint + 1) + "-0";
            return SessionReplay.replay(base, read(id, from, version + "-0", Integer.MAX_VALUE));
        });
    }

    List<SessionEvent> read(String sessionId, String from, String to, int limit) {
        List<StreamMessage<String, String, String>> entries = redis.stream(String.class).xrange(SessionKeys.events(sessionId),
                StreamRange.of(from, to), limit);
        List<SessionEvent> events = new ArrayList<>(entries.size());
        for (StreamMessage<String, String, String> entry : entries) {
            SessionEvent e = fields.read(entry.payload().get("e"), SessionEvent.class);
            long version = Long.parseLong(entry.id().substring(0, entry.id().indexOf('-')));
            events.add(new SessionEvent(version, e.type(), e.at(), e.actor(), e.note(), e.patch(), e.toVersion(),
                    e.state()));
        }
        return events;
    }

    static final class StringMap extends HashMap<String, String> {
    }

}
