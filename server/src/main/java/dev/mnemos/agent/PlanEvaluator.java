package dev.mnemos.agent;

import dev.langchain4j.agentic.Agent;
import dev.langchain4j.agentic.declarative.ChatModelSupplier;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;

/**
 * Scores a plan version and gives feedback (prompt {@code prompts/evaluate-plan.txt});
 * {@link EvaluationWriter} stores both with that version, apart from its text. An agent of {@link PlanningLoop}.
 */
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class, chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface PlanEvaluator {

    /** @param brief the goal, constraints and the plan to evaluate ({@link Briefs#evaluation}) */
    @Agent(description = "Scores the newest plan version and says what to improve", outputKey = "evaluation")
    @SessionMemory(step = "evaluate-plan", writer = EvaluationWriter.class)
    @SystemMessage(fromResource = "prompts/evaluate-plan.txt")
    Evaluation evaluate(@UserMessage @V(PlanningLoop.EVALUATION_BRIEF) String brief);

    /** The server's model, as for the agent's AI services. */
    @ChatModelSupplier
    static ChatModel model() {
        return new MnemosModelSupplier().get();
    }
}
