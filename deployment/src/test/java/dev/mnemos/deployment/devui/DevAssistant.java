package dev.mnemos.deployment.devui;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** The dev-mode test applications' AI service: each call is a step with a trace. */
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
@ApplicationScoped
public interface DevAssistant {

    @SessionMemory(step = "advise")
    @SystemMessage("You help.\n{inject:memory.block}")
    String advise(@MemoryId String sessionId, @UserMessage String question);
}
