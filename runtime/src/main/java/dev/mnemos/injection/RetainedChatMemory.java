package dev.mnemos.injection;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;

import java.util.List;

/**
 * A chat memory whose {@link #clear()} only lets go of it in this process. Quarkus LangChain4j
 * clears the chat memories of a request-scoped AI service at the end of every request and of an
 * application-scoped one at shutdown; for a session's history that must survive both, deleting
 * is a deliberate call to {@link RedisChatMemoryStore#deleteMessages}.
 */
final class RetainedChatMemory implements ChatMemory {

    private final ChatMemory delegate;

    RetainedChatMemory(ChatMemory delegate) {
        this.delegate = delegate;
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
        return delegate.messages();
    }

    @Override
    public void clear() {
        // eviction from this process only; the history stays in Redis
    }
}
