package dev.mnemos.support;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The chat model of the extension's test applications: it records each request, and answers with the
 * script a test installed, or "ok" when none is installed. Tests call {@link #reset()} in their set-up so
 * scripts never leak between tests.
 */
@ApplicationScoped
public class ScriptedChatModel implements ChatModel {

    private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
    private volatile Function<ChatRequest, String> script;

    @Override
    public ChatResponse doChat(ChatRequest request) {
        requests.add(request);
        Function<ChatRequest, String> current = script;
        String answer = current == null ? "ok" : current.apply(request);
        return ChatResponse.builder().aiMessage(AiMessage.from(answer)).build();
    }

    /** Answers every following request with {@code answer(request)}; it may sleep or throw. */
    public void script(Function<ChatRequest, String> answer) {
        this.script = answer;
    }

    /** Every request received since the last reset, in order. */
    public List<ChatRequest> requests() {
        return List.copyOf(requests);
    }

    public void reset() {
        script = null;
        requests.clear();
    }
}
