package dev.mnemos.agent;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** Extracts the goal, constraints and preferences of one message (prompt {@code prompts/analyze-requirements.txt}). */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class,
        chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface RequirementAnalyst {

    /** @param request the user's message followed by the goal and constraints known so far ({@link Briefs#analysis}) */
    @SystemMessage(fromResource = "prompts/analyze-requirements.txt")
    Requirements analyze(String memory, @UserMessage String request);
}
