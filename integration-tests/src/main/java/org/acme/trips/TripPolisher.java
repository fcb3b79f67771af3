package org.acme.trips;

import dev.langchain4j.agentic.Agent;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import dev.mnemos.injection.SessionMemory;

/** The agent {@link TripPolishLoop} runs again and again: it rewrites the review. */
public interface TripPolisher {

    @Agent(description = "Polishes a reviewed trip", outputKey = "review")
    @SessionMemory(step = "polish")
    @SystemMessage("""
            You polish a trip plan.
            {inject:memory.block}""")
    @UserMessage("Polish this plan: {review}")
    String polish(@V("review") String review);
}
