package org.acme.trips;

import dev.langchain4j.agentic.declarative.LoopAgent;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.V;

/** A loop workflow on the same session as {@link TripBreakdown}: polishes its review twice. */
public interface TripPolishLoop {

    @LoopAgent(outputKey = "review", maxIterations = 2, subAgents = TripPolisher.class)
    String polish(@MemoryId String sessionId, @V("review") String review);
}
