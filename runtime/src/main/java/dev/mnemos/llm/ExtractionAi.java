package dev.mnemos.llm;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** The fact extraction prompt ({@code prompts/fact-extraction.txt}); use {@link ExtractionModel}. */
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class, chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
@ApplicationScoped
public interface ExtractionAi {

    @SystemMessage(fromResource = "prompts/fact-extraction.txt")
    @UserMessage("{request}")
    String extract(String request);
}
