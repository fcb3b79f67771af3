package dev.mnemos.deployment.devui;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** An AI service with a tool: each call is a step whose trace lists the tool runs of its model call. */
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class, tools = ToolAssistant.Forecasts.class)
@ApplicationScoped
public interface ToolAssistant {

    @SessionMemory(step = "forecast-advice")
    @SystemMessage("You help.\n{inject:memory.block}")
    String advise(@MemoryId String sessionId, @UserMessage String question);

    /** The tool; its answer holds markup, which the inspector must show as text. */
    @ApplicationScoped
    class Forecasts {
        static final String PREFIX = "<b>Sunny</b> & 24°C in ";

        @Tool("The weather forecast for a city")
        public String forecast(String city) {
            return PREFIX + city;
        }
    }
}
