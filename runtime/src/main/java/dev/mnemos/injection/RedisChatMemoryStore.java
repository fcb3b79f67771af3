package dev.mnemos.injection;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.mnemos.session.SessionConfig;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionKeys;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.value.SetArgs;
import io.quarkus.redis.datasource.value.ValueCommands;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * LangChain4j chat history of a session in Redis: one JSON string at the session's
 * {@link SessionKeys#chat} key, written whole by each update (the window is small and
 * bounded), with the session's TTL refreshed on every write. The memory id must be a session id.
 * {@link #deleteMessages} really deletes; {@link SessionChatMemoryProvider} makes sure the
 * framework's end-of-request and shutdown clean-up never reaches it.
 */
@ApplicationScoped
public class RedisChatMemoryStore implements ChatMemoryStore {

    private final ValueCommands<String, String> values;
    private final RedisDataSource redis;
    private final SessionConfig session;

    public RedisChatMemoryStore(RedisDataSource redis, SessionConfig session) {
        this.redis = redis;
        this.values = redis.value(String.class);
        this.session = session;
    }

    private static String key(Object memoryId) {
        return SessionKeys.chat(SessionIds.require("memoryId", String.valueOf(memoryId)));
    }

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        String json = values.get(key(memoryId));
        return json == null ? List.of() : ChatMessageDeserializer.messagesFromJson(json);
    }

    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        values.set(key(memoryId), ChatMessageSerializer.messagesToJson(messages),
                new SetArgs().px(session.ttl().toMillis()));
    }

    /** Deletes the session's chat history for good. */
    @Override
    public void deleteMessages(Object memoryId) {
        redis.key().del(key(memoryId));
    }
}
