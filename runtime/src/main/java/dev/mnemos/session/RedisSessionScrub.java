package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What forgetting and erasing do to a user's sessions in Redis: read every value of a session, blank texts out of
 * it in place ({@code session-scrub.lua}, one atomic script per session, no new version), delete every key of a
 * user's sessions and their indexes, and dump a session's keys for an export.
 */
@ApplicationScoped
public class RedisSessionScrub {

    private final RedisDataSource redis;

    public RedisSessionScrub(@MnemosRedis RedisDataSource redis) {
        this.redis = redis;
    }

    /** Every session id in the user's index, live or not. */
    public List<String> indexed(String userId) {
        return SessionStoreUnavailableException
                .guard(() -> redis.sortedSet(String.class).zrange(SessionKeys.userSessions(userId), 0, -1));
    }

    /** The text values of the session's state, replay log, chat windows, traces, plans and idempotency records. */
    public List<String> values(String sessionId) {
        return SessionStoreUnavailableException.guard(() -> read(sessionId));
    }

    private List<String> read(String sessionId) {
        List<String> values = new ArrayList<>();
        for (String key : List.of(SessionKeys.state(sessionId), SessionKeys.chat(sessionId), SessionKeys.trace(sessionId),
                SessionKeys.plans(sessionId), SessionKeys.idempotency(sessionId))) {
            values.addAll(redis.hash(String.class).hgetall(key).values());
        }
        for (StreamMessage<String, String, String> entry : redis.stream(String.class).xrange(SessionKeys.events(sessionId),
                StreamRange.of("-", "+"))) {
            values.addAll(entry.payload().values());
        }
        return values;
    }

    /**
     * Replaces each of {@code forms} (longest first) by {@code replacement} in every key of the session, atomically;
     * a session that is gone is left alone. Idempotent. Returns how many replacements were made.
     */
    public long scrub(String sessionId, String replacement, List<String> forms) {
        if (forms.isEmpty()) {
            return 0;
        }
        List<String> args = new ScriptArgs.Scrub(replacement, forms).argv();
        return SessionStoreUnavailableException.guard(
                () -> LuaScript.SCRUB.script().execute(redis, LuaScript.SCRUB.keys(sessionId), args).toLong());
    }

    /**
     * Deletes every key of these sessions (their ended markers too), the user's index of sessions, their byte budget and
     * {@code others}
     * (keys of the user outside the sessions), and takes the sessions out of the index of unfinished ends (not counted:
     * those keys hold other sessions too). Returns how many keys were deleted.
     */
    public long erase(String userId, Collection<String> sessionIds, String... others) {
        return SessionStoreUnavailableException.guard(() -> {
            long deleted = 0;
            RedisUnfinishedEnds ends = new RedisUnfinishedEnds(redis);
            for (String session : sessionIds) {
                deleted += redis.key().del(SessionKeys.allAndEnded(session).toArray(String[]::new));
                ends.finished(session);
            }
            deleted += redis.key().del(SessionKeys.userSessions(userId));
            deleted += redis.key().del(SessionKeys.userBytes(userId));
            for (String key : others) {
                deleted += redis.key().del(key);
            }
            return deleted;
        });
    }

    /**
     * The session's keys as they are: a hash as its fields (a checkpoint as its MessagePack bytes), the replay log as
     * its entries with their ids; keys that do not exist are left out.
     */
    public Map<String, Object> dump(String sessionId) {
        return SessionStoreUnavailableException.guard(() -> keys(sessionId));
    }

    private Map<String, Object> keys(String sessionId) {
        Map<String, Object> keys = new LinkedHashMap<>();
        for (String key : SessionKeys.all(sessionId)) {
            if (key.equals(SessionKeys.events(sessionId))) {
                List<Map<String, Object>> entries = new ArrayList<>();
                for (StreamMessage<String, String, String> m : redis.stream(String.class).xrange(key,
                        StreamRange.of("-", "+"))) {
                    entries.add(Map.of("id", m.id(), "fields", m.payload()));
                }
                if (!entries.isEmpty()) {
                    keys.put(key, entries);
                }
            } else if (key.equals(SessionKeys.snapshots(sessionId))) {
                Map<String, byte[]> checkpoints = redis.hash(byte[].class).hgetall(key);
                if (!checkpoints.isEmpty()) {
                    keys.put(key, checkpoints);
                }
            } else {
                Map<String, String> fields = redis.hash(String.class).hgetall(key);
                if (!fields.isEmpty()) {
                    keys.put(key, fields);
                }
            }
        }
        return keys;
    }
}
