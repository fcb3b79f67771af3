package org.acme.trips;

import dev.langchain4j.agentic.Agent;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import dev.mnemos.injection.SessionMemory;

/** The second agent of {@link TripBreakdown}: reviews the draft, which its memory block shows. */
public interface TripReviewer {

    @Agent(description = "Reviews a drafted trip", outputKey = "review")
    @SessionMemory(step = "review")
    @SystemMessage("""
            You review a trip plan and keep what works.
            {inject:memory.block}""")
    @UserMessage("Review this draft: {draft}")
    String review(@V("draft") String draft);
}
