package dev.mnemos.support;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;

/** An AI service in the extension's default scope, which clears its chat memories at the end of each request. */
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
public interface RequestScopedTripAi {

    @SessionMemory(step = "chat")
    @SystemMessage("#prompt: trip\nYou help plan trips.\n{inject:memory.block}")
    String chat(@MemoryId String sessionId, @UserMessage String message);
}
