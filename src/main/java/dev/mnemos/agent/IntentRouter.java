package dev.mnemos.agent;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Fallback;

/**
 * Classifies every user message (prompt {@code prompts/route-intent.txt}). No chat memory: what the
 * router knows of the conversation is the memory block and the recent history it is given.
 */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class,
        chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface IntentRouter {

    @SystemMessage(fromResource = "prompts/route-intent.txt")
    @Fallback(fallbackMethod = "unavailable")
    Routing route(String memory, String history, @UserMessage String message);

    /** When the model fails or answers garbage: nothing is planned or written on a guess. */
    default Routing unavailable(String memory, String history, String message) {
        return new Routing(Intent.UNRECOGNIZED, null, "the intent router was unavailable");
    }
}
