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

    /** Lists and replaces a session's sealed values, which only Java opens ({@code session-sealed.lua}). */
    private static final SessionScripts SEALED = SessionScripts.standalone("session-sealed.lua");

    private final RedisDataSource redis;
    private final SessionValues values;

    public RedisSessionScrub(@MnemosRedis RedisDataSource redis, SessionValues values) {
        this.redis = redis;
        this.values = values;
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
        String userId = owner(sessionId);
        List<String> values = new ArrayList<>();
        for (String key : List.of(SessionKeys.state(sessionId), SessionKeys.chat(sessionId), SessionKeys.trace(sessionId),
                SessionKeys.plans(sessionId), SessionKeys.idempotency(sessionId))) {
            values.addAll(opened(userId, key, redis.hash(String.class).hgetall(key)).values());
        }
        String events = SessionKeys.events(sessionId);
        for (StreamMessage<String, String, String> entry : redis.stream(String.class).xrange(events,
                StreamRange.of("-", "+"))) {
            values.addAll(opened(userId, events, entry.payload()).values());
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
        long sealed = values.on() ? SessionStoreUnavailableException.guard(() -> scrubSealed(sessionId, replacement, forms))
                : 0;
        return sealed + SessionStoreUnavailableException.guard(
                () -> LuaScript.SCRUB.script().execute(redis, LuaScript.SCRUB.keys(sessionId), args).toLong());
    }

    /**
     * The scrub of sealed values: {@code session-sealed.lua} lists them (undo records and checkpoints included), each is
     * opened here, blanked, and sealed again when it held a form, and the script swaps the old values for the new ones
     * atomically. A value written between the two calls is left as it is (the next forget of the user finds it).
     */
    private long scrubSealed(String sessionId, String replacement, List<String> forms) {
        List<String> keys = LuaScript.SCRUB.keys(sessionId);
        var listed = SEALED.execute(redis, keys, List.of("list"));
        if (listed == null || listed.size() == 0) {
            return 0;
        }
        String userId = owner(sessionId);
        List<String> swaps = new ArrayList<>(List.of("replace"));
        for (int i = 0; i + 2 < listed.size(); i += 3) {
            String family = listed.get(i).toString();
            String field = listed.get(i + 1).toString();
            String stored = listed.get(i + 2).toString();
            String blanked = blanked(userId, family, field, stored, replacement, forms);
            if (!blanked.equals(stored)) {
                swaps.add(stored);
                swaps.add(blanked);
            }
        }
        if (swaps.size() == 1) {
            return 0;
        }
        long swapped = SEALED.execute(redis, keys, swaps).toLong();
        values.forget(userId); // the texts remembered opened held what was forgotten
        return swapped;
    }

    /** {@code stored} with every form in its sealed text replaced, sealed again; as it is when it held none. */
    private String blanked(String userId, String family, String field, String stored, String replacement,
            List<String> forms) {
        int at = stored.indexOf('\u0002');
        String place = place(family, field);
        if (place == null || at < 0) {
            return stored;
        }
        String plain = values.open(userId, place, stored.substring(at));
        String blanked = plain;
        for (String form : forms) {
            if (!form.isEmpty()) {
                blanked = blanked.replace(form, replacement);
            }
        }
        return blanked.equals(plain) ? stored : stored.substring(0, at) + values.seal(userId, place, blanked);
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
     * The session's keys as they are, their sealed texts opened: a hash as its fields (a checkpoint or a block of undo
     * records as its MessagePack bytes, whose texts stay as stored), the replay log as its entries with their ids; keys
     * that do not exist are left out.
     */
    public Map<String, Object> dump(String sessionId) {
        return SessionStoreUnavailableException.guard(() -> keys(sessionId));
    }

    private Map<String, Object> keys(String sessionId) {
        String userId = owner(sessionId);
        Map<String, Object> keys = new LinkedHashMap<>();
        for (String key : SessionKeys.all(sessionId)) {
            if (key.equals(SessionKeys.events(sessionId))) {
                List<Map<String, Object>> entries = new ArrayList<>();
                for (StreamMessage<String, String, String> m : redis.stream(String.class).xrange(key,
                        StreamRange.of("-", "+"))) {
                    entries.add(Map.of("id", m.id(), "fields", opened(userId, key, m.payload())));
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
                    keys.put(key, opened(userId, key, fields));
                }
            }
        }
        return keys;
    }

    /** The fields of one of the session's keys with their sealed texts opened ({@link SessionValues}). */
    private Map<String, String> opened(String userId, String key, Map<String, String> fields) {
        if (userId == null) {
            return fields;
        }
        String family = key.substring(key.lastIndexOf(':') + 1);
        Map<String, String> opened = new LinkedHashMap<>();
        fields.forEach((field, value) -> opened.put(field, opened(userId, family, field, value)));
        return opened;
    }

    /** The session's owner when its texts are sealed (null when they are not, or it has no state left). */
    private String owner(String sessionId) {
        return values.on() ? redis.hash(String.class).hget(SessionKeys.state(sessionId), "userId") : null;
    }

    /** A stored value opened at the place its key family and field give it (as StateFields and the stores seal it). */
    private String opened(String userId, String family, String field, String value) {
        if (value == null || value.indexOf('\u0002') < 0) {
            return value;
        }
        int sealed = value.indexOf('\u0002');
        String head = value.substring(0, sealed);
        String place = place(family, field);
        if (place == null) {
            return value;
        }
        String plain = values.open(userId, place, value.substring(sealed));
        if (family.equals("events") && plain.startsWith("{")) {
            // a sealed event is led by its time in base 36, left out of its JSON (StateFields#event)
            return "{\"at\":" + Long.parseLong(head, 36) + (plain.length() > 2 ? "," + plain.substring(1) : "}");
        }
        return head + plain;
    }

    /** Where a value of the key family and field is sealed (as StateFields and the stores seal it); null: nowhere. */
    private static String place(String family, String field) {
        return switch (family) {
            case "state" -> field.length() > 1 && field.charAt(1) == ':' ? field.substring(0, 1) : field;
            case "plans" -> "p";
            case "events" -> "event";
            case "chats" -> "chat";
            case "trace" -> "trace";
            case "idem" -> "idempotency";
            default -> null;
        };
    }
}
