package dev.mnemos.injection.chat;

import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryContext;
import dev.mnemos.injection.SessionMemory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.regex.Pattern;

/**
 * The chat memory of every AI service that uses the default provider.
 * <ul>
 * <li>A {@code @MemoryId} that is a session id gets a sliding window of {@link InjectionConfig#chatMaxMessages()}
 * messages kept in Redis across requests and restarts. With {@link InjectionConfig#chatWindow()} per service (the
 * default), an AI service called in a {@link SessionMemory} step of that session keeps a window of its own, named
 * after its interface; otherwise it uses the session's shared window.</li>
 * <li>Any other id (LangChain4j's {@code "default"}, the request state Quarkus uses for services without
 * {@code @MemoryId}) gets a window in this process only, so stateless services never share a Redis history.</li>
 * </ul>
 * Quarkus LangChain4j asks once per AI service and memory id and keeps the memory, so the window is chosen by the
 * first call of that service with that id.
 */
@ApplicationScoped
public class SessionChatMemoryProvider implements ChatMemoryProvider {

    private static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9._@:-]{1,128}");
    private static final String LANGCHAIN4J_DEFAULT_ID = "default";

    private final RedisChatMemoryStore redis;
    private final InMemoryChatMemoryStore local = new InMemoryChatMemoryStore();
    private final int maxMessages;
    private final MemoryContext memory;
    private final boolean perService;

    /** A provider whose windows are the sessions' shared ones (no step context). */
    public SessionChatMemoryProvider(RedisChatMemoryStore redis, InjectionConfig config) {
        this(redis, config, null);
    }

    @Inject
    public SessionChatMemoryProvider(RedisChatMemoryStore redis, InjectionConfig config, MemoryContext memory) {
        this.redis = redis;
        this.maxMessages = config.chatMaxMessages();
        this.memory = memory;
        this.perService = memory != null && config.chatWindow() == InjectionConfig.ChatWindow.PER_SERVICE;
    }

    @Override
    public ChatMemory get(Object memoryId) {
        if (isSessionId(memoryId)) {
            return new RetainedChatMemory(window(windowOf((String) memoryId), redis), (String) memoryId, memory);
        }
        return window(memoryId, local);
    }

    public static boolean isSessionId(Object memoryId) {
        return memoryId instanceof String id && !LANGCHAIN4J_DEFAULT_ID.equals(id) && SESSION_ID.matcher(id).matches();
    }

    /** The session's window this call uses: its AI service's own when the running step names one. */
    private Object windowOf(String sessionId) {
        if (!perService) {
            return sessionId;
        }
        return memory.current().filter(step -> step.sessionId().equals(sessionId) && step.chatWindow() != null)
                .<Object> map(step -> new RedisChatMemoryStore.Window(sessionId, step.chatWindow())).orElse(sessionId);
    }

    /**
     * After a streamed step of {@code step}'s session: the copy of its window kept for the version it read (for
     * rollback and fork) takes the answer, which the framework added when the stream ended, on another thread.
     */
    public void streamEnded(MemoryContext.ActiveStep step) {
        Object window = perService && step.chatWindow() != null
                ? new RedisChatMemoryStore.Window(step.sessionId(), step.chatWindow())
                : step.sessionId();
        redis.keepAsNow(window, step.readVersion());
    }

    private ChatMemory window(Object memoryId, ChatMemoryStore store) {
        return MessageWindowChatMemory.builder().id(memoryId).maxMessages(maxMessages).chatMemoryStore(store).build();
    }
}
