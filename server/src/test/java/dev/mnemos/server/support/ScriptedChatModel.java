package dev.mnemos.server.support;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.mnemos.agent.offline.OfflineChatModel;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Typed;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The chat model of every {@code @QuarkusTest}: it records each request, and answers with the
 * script a test installed, or through the offline model when no script is installed. Tests call
 * {@link #reset()} in their set-up so scripts never leak between tests.
 */
@Alternative
@Priority(1)
@ApplicationScoped
@Typed({ ChatModel.class, ScriptedChatModel.class })
public class ScriptedChatModel implements ChatModel {

    private final OfflineChatModel offline;
    private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
    private volatile Function<ChatRequest, String> script;

    public ScriptedChatModel(OfflineChatModel offline) {
        this.offline = offline;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        requests.add(request);
        Function<ChatRequest, String> current = script;
        if (current == null) {
            return offline.doChat(request);
        }
        return ChatResponse.builder().aiMessage(AiMessage.from(current.apply(request))).build();
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
