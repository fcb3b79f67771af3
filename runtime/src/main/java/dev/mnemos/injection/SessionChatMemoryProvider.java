package dev.mnemos.injection;

import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.regex.Pattern;

/**
 * The chat memory of every AI service that uses the default provider. A {@code @MemoryId} that is
 * a session id gets a sliding window of {@link InjectionConfig#chatMaxMessages()} messages kept in
 * Redis across requests and restarts; any other id (LangChain4j's {@code "default"}, the request
 * state Quarkus uses for services without {@code @MemoryId}) gets a window in this process only,
 * so stateless services never share a Redis history.
 */
@ApplicationScoped
public class SessionChatMemoryProvider implements ChatMemoryProvider {

    private static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9._@:-]{1,128}");
    private static final String LANGCHAIN4J_DEFAULT_ID = "default";

    private final RedisChatMemoryStore redis;
    private final InMemoryChatMemoryStore local = new InMemoryChatMemoryStore();
    private final int maxMessages;

    public SessionChatMemoryProvider(RedisChatMemoryStore redis, InjectionConfig config) {
        this.redis = redis;
        this.maxMessages = config.chatMaxMessages();
    }

    @Override
    public ChatMemory get(Object memoryId) {
        if (isSessionId(memoryId)) {
            return new RetainedChatMemory(window(memoryId, redis));
        }
        return window(memoryId, local);
    }

    public static boolean isSessionId(Object memoryId) {
        return memoryId instanceof String id && !LANGCHAIN4J_DEFAULT_ID.equals(id) && SESSION_ID.matcher(id).matches();
    }

    private ChatMemory window(Object memoryId, dev.langchain4j.store.memory.chat.ChatMemoryStore store) {
        return MessageWindowChatMemory.builder().id(memoryId).maxMessages(maxMessages).chatMemoryStore(store).build();
    }
}
