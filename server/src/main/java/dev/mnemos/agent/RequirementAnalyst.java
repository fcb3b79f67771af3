package dev.mnemos.agent;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Extracts the goal, constraints and preferences of one message (prompt
 * {@code prompts/analyze-requirements.txt}); {@link RequirementsWriter} writes them to the session.
 */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class, chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface RequirementAnalyst {

    /** @param brief the user's message and what is known so far ({@link Briefs#analysis}) */
    @SessionMemory(step = "analyze-requirements", writer = RequirementsWriter.class)
    @SystemMessage(fromResource = "prompts/analyze-requirements.txt")
    Requirements analyze(@MemoryId String sessionId, @UserMessage String brief);
}
