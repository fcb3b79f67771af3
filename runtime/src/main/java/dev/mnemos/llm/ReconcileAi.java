package dev.mnemos.llm;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** The reconcile prompt ({@code prompts/reconcile.txt}); use {@link ReconcileModel}, which parses and falls back. */
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class, chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
@ApplicationScoped
public interface ReconcileAi {

    @SystemMessage(fromResource = "prompts/reconcile.txt")
    @UserMessage("{request}")
    String reconcile(String request);
}
