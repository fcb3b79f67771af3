package dev.mnemos.promotion;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A chat memory store enabled only by {@link PromotionModelProfile}, so promotion tests can seed a
 * session's chat; it does not replace the application's store in any other test.
 */
@Alternative
@ApplicationScoped
public class RecordingChatMemoryStore implements ChatMemoryStore {

    private final Map<Object, List<ChatMessage>> chats = new ConcurrentHashMap<>();

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        return chats.getOrDefault(memoryId, List.of());
    }

    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        chats.put(memoryId, List.copyOf(messages));
    }

    @Override
    public void deleteMessages(Object memoryId) {
        chats.remove(memoryId);
    }
}
