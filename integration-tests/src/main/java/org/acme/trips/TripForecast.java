package org.acme.trips;

import dev.langchain4j.agentic.declarative.SequenceAgent;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.V;

/** A workflow whose one agent runs a tool: the tool's runs are in that agent's step trace. */
public interface TripForecast {

    @SequenceAgent(outputKey = "forecast", subAgents = TripForecaster.class)
    String forecast(@MemoryId String sessionId, @V("request") String request);
}
