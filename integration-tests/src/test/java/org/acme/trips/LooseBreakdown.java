package org.acme.trips;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.V;

/** A workflow built with builders and not attached to Mnemos ({@link AgenticStepsTest}). */
public interface LooseBreakdown {

    String breakDown(@MemoryId String sessionId, @V("request") String request);
}
