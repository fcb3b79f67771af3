package dev.mnemos.agent;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Writes a plan version, or rewrites the previous one against its feedback (prompt
 * {@code prompts/decompose-plan.txt}); {@link PlanWriter} appends it as the next plan version.
 */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class, chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface PlanDecomposer {

    /** @param brief the goal, constraints and, for a rewrite, the previous plan and feedback ({@link Briefs#decomposition}) */
    @SessionMemory(step = "decompose-plan", writer = PlanWriter.class)
    @SystemMessage(fromResource = "prompts/decompose-plan.txt")
    Plan decompose(@MemoryId String sessionId, @UserMessage String brief);
}
