package dev.mnemos.agent;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Scores a plan version and gives feedback (prompt {@code prompts/evaluate-plan.txt});
 * {@link EvaluationWriter} stores both with that version, apart from its text.
 */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class, chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface PlanEvaluator {

    /** @param brief the goal, constraints and the plan to evaluate ({@link Briefs#evaluation}) */
    @SessionMemory(step = "evaluate-plan", writer = EvaluationWriter.class)
    @SystemMessage(fromResource = "prompts/evaluate-plan.txt")
    Evaluation evaluate(@MemoryId String sessionId, @UserMessage String brief);
}
