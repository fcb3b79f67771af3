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
 * Writes a plan version, or rewrites the previous one against its feedback (prompt
 * {@code prompts/decompose-plan.txt}); {@link PlanWriter} appends it as the next plan version. An agent of
 * {@link PlanningLoop}: its session is the workflow's memory id.
 */
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class, chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface PlanDecomposer {

    /** @param brief the goal, constraints and, for a rewrite, the previous plan and feedback ({@link Briefs#decomposition}) */
    @Agent(description = "Writes the next plan version", outputKey = "plan")
    @SessionMemory(step = "decompose-plan", writer = PlanWriter.class)
    @SystemMessage(fromResource = "prompts/decompose-plan.txt")
    Plan decompose(@UserMessage @V(PlanningLoop.PLAN_BRIEF) String brief);

    /** The server's model, as for the agent's AI services. */
    @ChatModelSupplier
    static ChatModel model() {
        return new MnemosModelSupplier().get();
    }
}
