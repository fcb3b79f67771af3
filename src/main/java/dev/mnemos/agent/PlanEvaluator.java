package dev.mnemos.agent;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** Scores a plan version and gives feedback (prompt {@code prompts/evaluate-plan.txt}). */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class,
        chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface PlanEvaluator {

    /** @param request the goal, constraints and the plan to evaluate ({@link Briefs#evaluation}) */
    @SystemMessage(fromResource = "prompts/evaluate-plan.txt")
    Evaluation evaluate(String memory, @UserMessage String request);
}
