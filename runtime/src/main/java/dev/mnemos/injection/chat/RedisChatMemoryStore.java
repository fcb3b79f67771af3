package dev.mnemos.injection.chat;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.mnemos.injection.MemoryContext;
import dev.mnemos.injection.SessionChatHistory;
import dev.mnemos.session.MnemosRedis;
import dev.mnemos.session.SessionConfig;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionOwners;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.session.SessionValues;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.hash.HashCommands;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * LangChain4j chat history of a session in Redis: the session's {@link SessionKeys#chat} hash holds one JSON string a
 * window, written whole by each update (a window is small and bounded), with the session's TTL refreshed on every
 * write. The memory id is a session id (its shared window) or a {@link Window}. {@link #deleteMessages} of a session
 * id deletes every window of the session; {@link SessionChatMemoryProvider} makes sure the framework's
 * end-of-request and shutdown clean-up never reaches it.
 * <p>
 * A window updated during a step is also kept as it was after that step, in the same hash under
 * {@code <window>@<version the step read>}, for the session's history retention: a rollback sets each window back to
 * what it was at the version rolled back to, and a fork starts with the windows of the version it forks from
 * ({@link ChatWindowsFollowVersions}).
 */
@ApplicationScoped
public class RedisChatMemoryStore implements ChatMemoryStore, SessionChatHistory {

    /** The shared window's field in the hash. */
    static final String SHARED = "session";
    /** The place of a sealed window ({@link SessionValues}). */
    private static final String PLACE = "chat";
    /** Between a window's name and the version a kept copy of it follows. */
    private static final char AT = '@';

    /** One named window of a session's chat history (an AI service's own). */
    public record Window(String sessionId, String name) {

        @Override
        public String toString() {
            return sessionId + "#" + name;
        }
    }

    private final HashCommands<String, String, String> hashes;
    private final RedisDataSource redis;
    private final SessionConfig session;
    private final MemoryContext steps;
    /** Windows are sealed with their session owner's data key when encryption at rest is on. */
    private final SessionValues values;
    private final SessionOwners owners;

    public RedisChatMemoryStore(@MnemosRedis RedisDataSource redis, SessionConfig session, MemoryContext steps,
            SessionValues values) {
        this.redis = redis;
        this.hashes = redis.hash(String.class);
        this.session = session;
        this.steps = steps;
        this.values = values;
        this.owners = SessionOwners.of(redis);
    }

    private static String sessionId(Object memoryId) {
        return memoryId instanceof Window window ? window.sessionId() : String.valueOf(memoryId);
    }

    private static String key(Object memoryId) {
        return SessionKeys.chat(SessionIds.require("memoryId", sessionId(memoryId)));
    }

    /** A window's messages as stored: a kept copy is the stored value itself, so it opens wherever it is copied. */
    private String sealed(Object memoryId, String json) {
        return values.on() ? values.seal(owners.owner(sessionId(memoryId)), PLACE, json) : json;
    }

    private List<ChatMessage> messages(String sessionId, String stored) {
        return ChatMessageDeserializer
                .messagesFromJson(values.on() ? values.open(owners.owner(sessionId), PLACE, stored) : stored);
    }

    private static String field(Object memoryId) {
        return memoryId instanceof Window window ? window.name() : SHARED;
    }

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        String json = SessionStoreUnavailableException.guard(() -> hashes.hget(key(memoryId), field(memoryId)));
        return json == null ? List.of() : messages(sessionId(memoryId), json);
    }

    /** Writes the window; during a step of its session, also the copy kept for the version the step read. */
    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        SessionStoreUnavailableException.guard(() -> {
            update(memoryId, messages);
            return null;
        });
    }

    private void update(Object memoryId, List<ChatMessage> messages) {
        String key = key(memoryId);
        String json = sealed(memoryId, ChatMessageSerializer.messagesToJson(messages));
        String window = field(memoryId);
        Optional<Long> read = steps.current().filter(step -> key.equals(SessionKeys.chat(step.sessionId())))
                .map(MemoryContext.ActiveStep::readVersion);
        if (read.isEmpty()) {
            hashes.hset(key, window, json);
        } else {
            hashes.hset(key, Map.of(window, json, kept(window, read.get()), json));
            hashes.hdel(key, kept(window, read.get() - session.historyRetention()));
        }
        redis.key().pexpire(key, session.ttl().toMillis());
    }

    /**
     * The copy of {@code memoryId}'s window kept for {@code readVersion} takes the window as it is now: after a streamed
     * step, whose answer the framework adds to the window when the stream ends, off the step's thread. Nothing happens
     * when the window is not in this store.
     */
    void keepAsNow(Object memoryId, long readVersion) {
        String key = key(memoryId);
        String window = field(memoryId);
        SessionStoreUnavailableException.guard(() -> {
            String json = hashes.hget(key, window);
            if (json != null) {
                hashes.hset(key, kept(window, readVersion), json);
            }
            return null;
        });
    }

    private static String kept(String window, long version) {
        return window + AT + version;
    }

    /**
     * Sets every window of the session back to what it was at {@code version}: the copy kept by the last step that
     * read a version before it, or no window at all when no step had written one by then. The windows set back are
     * also kept for {@code newVersion - 1}, so that rolling back to {@code newVersion} later finds them.
     */
    void rewind(String sessionId, long version, long newVersion) {
        String key = SessionKeys.chat(SessionIds.require("sessionId", sessionId));
        Map<String, String> all = hashes.hgetall(key);
        Map<String, String> at = at(all, version);
        for (String window : windowNames(all)) {
            String json = at.get(window);
            if (json == null) {
                hashes.hdel(key, window, kept(window, newVersion - 1));
            } else {
                hashes.hset(key, Map.of(window, json, kept(window, newVersion - 1), json));
            }
        }
    }

    /** Starts the fork's windows as the source's were at {@code version}, unless the fork has windows already. */
    void copy(String sourceId, long version, String forkId) {
        String target = SessionKeys.chat(SessionIds.require("forkId", forkId));
        Map<String, String> at = at(hashes.hgetall(SessionKeys.chat(SessionIds.require("sourceId", sourceId))), version);
        if (at.isEmpty() || redis.key().exists(target)) {
            return;
        }
        Map<String, String> fields = new HashMap<>();
        at.forEach((window, json) -> {
            fields.put(window, json);
            fields.put(kept(window, 0), json); // a rollback of the fork to its version 1
        });
        hashes.hset(target, fields);
        redis.key().pexpire(target, session.ttl().toMillis());
    }

    /** Each window's newest copy kept by a step that read a version before {@code version}. */
    private static Map<String, String> at(Map<String, String> all, long version) {
        Map<String, Long> newest = new HashMap<>();
        Map<String, String> at = new HashMap<>();
        all.forEach((field, json) -> {
            int sign = field.lastIndexOf(AT);
            if (sign < 0) {
                return;
            }
            String window = field.substring(0, sign);
            long read = Long.parseLong(field.substring(sign + 1));
            if (read < version && read > newest.getOrDefault(window, Long.MIN_VALUE)) {
                newest.put(window, read);
                at.put(window, json);
            }
        });
        return at;
    }

    /** The names of the windows the hash holds now or kept copies of. */
    private static Set<String> windowNames(Map<String, String> all) {
        Set<String> names = new TreeSet<>();
        all.keySet().forEach(field -> names.add(field.indexOf(AT) < 0 ? field : field.substring(0, field.lastIndexOf(AT))));
        return names;
    }

    @Override
    public List<List<ChatMessage>> windows(String sessionId) {
        Map<String, String> all = hashes.hgetall(SessionKeys.chat(SessionIds.require("sessionId", sessionId)));
        List<List<ChatMessage>> windows = new ArrayList<>();
        Optional.ofNullable(all.get(SHARED)).ifPresent(json -> windows.add(messages(sessionId, json)));
        all.entrySet().stream().filter(e -> !SHARED.equals(e.getKey()) && e.getKey().indexOf(AT) < 0)
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> windows.add(messages(sessionId, e.getValue())));
        return windows;
    }

    /** Deletes a window for good; for a session id, every window of the session. */
    @Override
    public void deleteMessages(Object memoryId) {
        if (memoryId instanceof Window) {
            hashes.hdel(key(memoryId), field(memoryId));
        } else {
            redis.key().del(key(memoryId));
        }
    }
}
