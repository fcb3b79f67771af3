package org.acme.trips;

import dev.langchain4j.agentic.scope.AgenticScopeAccess;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.V;

/** {@link TripBreakdown} as a workflow built with LangChain4j agentic's builders ({@link BuiltWorkflows}). */
public interface BuiltBreakdown extends AgenticScopeAccess {

    String breakDown(@MemoryId String sessionId, @V("request") String request);
}
