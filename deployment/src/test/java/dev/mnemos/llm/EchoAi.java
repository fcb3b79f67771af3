package dev.mnemos.llm;

import dev.langchain4j.service.SystemMessage;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
@ApplicationScoped
public interface EchoAi {
    @SystemMessage("#prompt: probe\nYou echo.")
    String echo(String text);
}
