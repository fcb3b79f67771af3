package dev.mnemos.llm;

import dev.langchain4j.service.SystemMessage;
import io.quarkiverse.langchain4j.RegisterAiService;

@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
public interface EchoAi {
    @SystemMessage("#prompt: probe\nYou echo.")
    String echo(String text);
}
