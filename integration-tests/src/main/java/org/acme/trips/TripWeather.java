package org.acme.trips;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** An AI service with a tool: the model may ask for forecasts before it answers. */
@RegisterAiService(tools = WeatherTools.class)
@ApplicationScoped
public interface TripWeather {

    @SessionMemory(step = "weather", writer = ToolNotingStepWriter.class)
    @SystemMessage("""
            You are a travel planner. Check the forecast of every city you suggest.
            {inject:memory.block}""")
    String advise(@MemoryId String sessionId, @UserMessage String request);
}
