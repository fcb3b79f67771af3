package dev.mnemos.injection.chat;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.mnemos.injection.MemoryContext;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.injection.block.OncePerPrompt;

import java.util.List;

/**
 * A chat memory whose {@link #clear()} only lets go of it in this process. Quarkus LangChain4j
 * clears the chat memories of a request-scoped AI service at the end of every request and of an
 * application-scoped one at shutdown; for a session's history that must survive both, deleting
 * is a deliberate call to {@link RedisChatMemoryStore#deleteMessages}. Read in a {@link SessionMemory} step of its
 * session, it tells the step which answers the prompt's chat turns carry ({@link OncePerPrompt}).
 */
final class RetainedChatMemory implements ChatMemory {

    private final ChatMemory delegate;
    private final String sessionId;
    /** The running steps; null: none is ever seen. */
    private final MemoryContext steps;

    RetainedChatMemory(ChatMemory delegate, String sessionId, MemoryContext steps) {
        this.delegate = delegate;
        this.sessionId = sessionId;
        this.steps = steps;
    }

    @Override
    public Object id() {
        return delegate.id();
    }

    @Override
    public void add(ChatMessage message) {
        delegate.add(message);
    }

    @Override
    public void set(Iterable<ChatMessage> messages) {
        delegate.set(messages);
    }

    @Override
    public List<ChatMessage> messages() {
        List<ChatMessage> messages = delegate.messages();
        if (steps != null) {
            steps.current().filter(step -> step.sessionId().equals(sessionId)).ifPresent(step -> step.chat().read(messages));
        }
        return messages;
    }

    @Override
    public void clear() {
        // eviction from this process only; the history stays in Redis
    }
}
