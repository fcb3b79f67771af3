package org.acme.packing;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The test app's model: answers each request with a list carrying a fresh random tag, and keeps each request's
 * messages by its user message, so a test can see what a later prompt carried.
 */
@ApplicationScoped
public class ScriptedModel implements ChatModel {

    private final Map<String, String> systemByQuestion = new ConcurrentHashMap<>();
    private final Map<String, List<ChatMessage>> messagesByQuestion = new ConcurrentHashMap<>();

    @Override
    public ChatResponse doChat(ChatRequest request) {
        String system = "";
        String question = "";
        for (ChatMessage message : request.messages()) {
            if (message instanceof SystemMessage s) {
                system = s.text();
            } else if (message instanceof UserMessage u) {
                question = u.singleText();
            }
        }
        systemByQuestion.put(question, system);
        messagesByQuestion.put(question, List.copyOf(request.messages()));
        String answer = "Wool socks, a rain shell, a headlamp [list-" + UUID.randomUUID() + "]";
        return ChatResponse.builder().aiMessage(AiMessage.from(answer)).build();
    }

    /** The answers of the model (the session's chat memory) that the request for {@code question} carried. */
    public List<String> earlierAnswersFor(String question) {
        return messagesByQuestion.getOrDefault(question, List.of()).stream().filter(AiMessage.class::isInstance)
                .map(m -> ((AiMessage) m).text()).toList();
    }

    /** The system message of the request whose user message was {@code question}, or null. */
    public String systemMessageFor(String question) {
        return systemByQuestion.get(question);
    }
}
