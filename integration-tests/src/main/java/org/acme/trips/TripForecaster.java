package org.acme.trips;

import dev.langchain4j.agentic.Agent;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import dev.mnemos.injection.SessionMemory;
import io.quarkiverse.langchain4j.RegisterAiService;

/** An agent with a tool ({@link TripForecast}): the model may ask for forecasts before it answers. */
@RegisterAiService(tools = WeatherTools.class)
public interface TripForecaster {

    @Agent(description = "Checks the forecast of every city of a trip", outputKey = "forecast")
    @SessionMemory(step = "forecast", writer = ToolNotingStepWriter.class)
    @SystemMessage("""
            You check the weather of every city of a trip.
            {inject:memory.block}""")
    @UserMessage("Check the forecast for: {request}")
    String forecast(@V("request") String request);
}
