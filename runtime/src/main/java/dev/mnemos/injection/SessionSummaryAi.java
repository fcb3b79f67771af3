package dev.mnemos.injection;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** Folds older plan versions into the rolling summary with the {@code session-summary} prompt. */
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class, chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
@ApplicationScoped
public interface SessionSummaryAi {

    @SystemMessage(fromResource = "prompts/session-summary.txt")
    @UserMessage("Current summary:\n{summary}\n\nPlan versions to fold in, oldest first:\n{plans}")
    String fold(@V("summary") String summary, @V("plans") String plans, @V("maxChars") int maxChars);
}
