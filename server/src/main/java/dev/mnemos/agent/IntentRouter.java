package dev.mnemos.agent;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Fallback;

/**
 * Classifies every user message (prompt {@code prompts/route-intent.txt}). The session memory is
 * injected by {@link SessionMemory}; the recent conversation is passed in. No LangChain4j chat
 * memory: the prompt is rebuilt from the session on every call.
 */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class, chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface IntentRouter {

    /** @param history the recent messages, oldest first, one per line ({@link Conversation#recent}) */
    @SessionMemory(step = "route-intent", writer = RoutingWriter.class)
    @SystemMessage(fromResource = "prompts/route-intent.txt")
    @Fallback(fallbackMethod = "unavailable")
    Routing route(@MemoryId String sessionId, String history, @UserMessage String message);

    /** When the model fails or answers garbage: nothing is planned on a guess; only the routing step is recorded. */
    default Routing unavailable(String sessionId, String history, String message) {
        return new Routing(Intent.UNRECOGNIZED, null, "the intent router was unavailable");
    }
}
