package org.acme.trips;

import dev.langchain4j.agentic.Agent;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import dev.mnemos.injection.SessionMemory;

/** The first agent of {@link TripBreakdown}: drafts the trip's steps. Its session is the workflow's memory id. */
public interface TripDrafter {

    @Agent(description = "Drafts the steps of a trip", outputKey = "draft")
    @SessionMemory(step = "draft")
    @SystemMessage("""
            You break a trip into steps, one a line.
            {inject:memory.block}""")
    @UserMessage("Break this trip into steps: {request}")
    String draft(@V("request") String request);
}
