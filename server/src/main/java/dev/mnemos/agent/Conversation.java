package dev.mnemos.agent;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.mnemos.injection.InjectionConfig;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Objects;

/**
 * The conversation of an agent session: the user's messages and the agent's replies, kept in the
 * application's {@link ChatMemoryStore} under the session id (a bounded window in Redis, cleared
 * with the session). The intent router reads the recent part; promotion at task end may extract
 * facts from the user's messages.
 */
@ApplicationScoped
public class Conversation {

    private final ChatMemoryStore store;
    private final AgentConfig config;
    private final int window;

    public Conversation(ChatMemoryStore store, AgentConfig config, InjectionConfig injection) {
        this.store = store;
        this.config = config;
        this.window = Math.max(injection.chatMaxMessages(), config.historyMessages());
    }

    /** Records one exchange; the reply is cut to {@link AgentConfig#historyReplyChars()}. */
    public void append(String sessionId, String message, String reply) {
        ChatMemory memory = MessageWindowChatMemory.builder().id(sessionId).maxMessages(window).chatMemoryStore(store).build();
        memory.add(UserMessage.from(message));
        int max = config.historyReplyChars();
        memory.add(AiMessage.from(reply.length() > max ? reply.substring(0, max) + "…" : reply));
    }

    /** The last {@link AgentConfig#historyMessages()} messages as {@code user: …} / {@code assistant: …} lines. */
    public List<String> recent(String sessionId) {
        List<ChatMessage> all = store.getMessages(sessionId);
        return all.subList(Math.max(0, all.size() - config.historyMessages()), all.size()).stream()
                .map(Conversation::line).filter(Objects::nonNull).toList();
    }

    private static String line(ChatMessage m) {
        if (m instanceof UserMessage u && u.hasSingleText()) {
            return "user: " + u.singleText();
        }
        return m instanceof AiMessage a && a.text() != null ? "assistant: " + a.text() : null;
    }
}
