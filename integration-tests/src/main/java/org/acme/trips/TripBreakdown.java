package org.acme.trips;

import dev.langchain4j.agentic.declarative.SequenceAgent;
import dev.langchain4j.agentic.scope.AgenticScopeAccess;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.V;

/**
 * A two-agent workflow: draft, then review. Its memory id is a Mnemos session: each agent is one step of it, and the
 * workflow's {@code AgenticScope} is kept in it ({@link AgenticScopeAccess} reads it back).
 */
public interface TripBreakdown extends AgenticScopeAccess {

    @SequenceAgent(outputKey = "review", subAgents = { TripDrafter.class, TripReviewer.class })
    String breakDown(@MemoryId String sessionId, @V("request") String request);
}
