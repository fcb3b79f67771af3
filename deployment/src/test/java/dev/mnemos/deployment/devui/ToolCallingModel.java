package dev.mnemos.deployment.devui;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * A model that calls the first tool it is offered once, for {@link #CITY}, then answers {@link #ANSWER} when the
 * tool's result comes back.
 */
@ApplicationScoped
public class ToolCallingModel implements ChatModel {

    static final String CITY = "Kyoto";
    static final String ANSWER = "Pack for sun.";

    @Override
    public ChatResponse doChat(ChatRequest request) {
        List<ToolSpecification> tools = request.toolSpecifications();
        boolean toolAnswered = request.messages().get(request.messages().size() - 1) instanceof ToolExecutionResultMessage;
        if (tools == null || tools.isEmpty() || toolAnswered) {
            return ChatResponse.builder().aiMessage(AiMessage.from(ANSWER)).build();
        }
        ToolSpecification tool = tools.get(0);
        String parameter = tool.parameters().properties().keySet().iterator().next();
        ToolExecutionRequest call = ToolExecutionRequest.builder().id("call-1").name(tool.name())
                .arguments("{\"" + parameter + "\":\"" + CITY + "\"}").build();
        return ChatResponse.builder().aiMessage(AiMessage.from(call)).build();
    }
}
