package dev.mnemos.injection.chat;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.mnemos.injection.SessionChatHistory;
import dev.mnemos.session.MnemosRedis;
import dev.mnemos.session.SessionConfig;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionKeys;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.hash.HashCommands;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * LangChain4j chat history of a session in Redis: the session's {@link SessionKeys#chat} hash holds one JSON string a
 * window, written whole by each update (a window is small and bounded), with the session's TTL refreshed on every
 * write. The memory id is a session id (its shared window) or a {@link Window}. {@link #deleteMessages} of a session
 * id deletes every window of the session; {@link SessionChatMemoryProvider} makes sure the framework's
 * end-of-request and shutdown clean-up never reaches it.
 */
@ApplicationScoped
public class RedisChatMemoryStore implements ChatMemoryStore, SessionChatHistory {

    /** The shared window's field in the hash. */
    static final String SHARED = "session";

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

    public RedisChatMemoryStore(@MnemosRedis RedisDataSource redis, SessionConfig session) {
        this.redis = redis;
        this.hashes = redis.hash(String.class);
        this.session = session;
    }

    private static String key(Object memoryId) {
        String sessionId = memoryId instanceof Window window ? window.sessionId() : String.valueOf(memoryId);
        return SessionKeys.chat(SessionIds.require("memoryId", sessionId));
    }

    private static String field(Object memoryId) {
        return memoryId instanceof Window window ? window.name() : SHARED;
    }

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        String json = hashes.hget(key(memoryId), field(memoryId));
        return json == null ? List.of() : ChatMessageDeserializer.messagesFromJson(json);
    }

    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        String key = key(memoryId);
        hashes.hset(key, field(memoryId), ChatMessageSerializer.messagesToJson(messages));
        redis.key().pexpire(key, session.ttl().toMillis());
    }

    @Override
    public List<List<ChatMessage>> windows(String sessionId) {
        Map<String, String> all = hashes.hgetall(SessionKeys.chat(SessionIds.require("sessionId", sessionId)));
        List<List<ChatMessage>> windows = new ArrayList<>();
        Optional.ofNullable(all.get(SHARED)).ifPresent(json -> windows.add(ChatMessageDeserializer.messagesFromJson(json)));
        all.entrySet().stream().filter(e -> !SHARED.equals(e.getKey())).sorted(Map.Entry.comparingByKey())
                .forEach(e -> windows.add(ChatMessageDeserializer.messagesFromJson(e.getValue())));
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
