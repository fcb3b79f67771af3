package dev.mnemos.agent;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** Writes a plan version, or rewrites the previous one against its feedback (prompt {@code prompts/decompose-plan.txt}). */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class,
        chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface PlanDecomposer {

    /** @param request the goal, constraints and, for a rewrite, the previous plan and feedback ({@link Briefs#decomposition}) */
    @SystemMessage(fromResource = "prompts/decompose-plan.txt")
    Plan decompose(String memory, @UserMessage String request);
}
