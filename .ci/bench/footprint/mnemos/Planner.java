package org.acme;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

@RegisterAiService
@ApplicationScoped
public interface Planner {

    @SessionMemory
    @SystemMessage("""
            You are a travel planner.
            {inject:memory.block}""")
    String suggest(@MemoryId String sessionId, @UserMessage String request);
}
