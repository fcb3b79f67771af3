package org.acme.trips;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * An AI service with nothing but the annotation: no writer of its own, no session the application creates. What the
 * traveller says reaches the session through Mnemos' default capture.
 */
@RegisterAiService
@ApplicationScoped
public interface TripAdvisor {

    @SessionMemory(step = "advise")
    @SystemMessage("""
            You are a travel adviser. Respect every constraint.
            {inject:memory.block}""")
    String advise(@MemoryId String sessionId, @UserMessage String request);
}
