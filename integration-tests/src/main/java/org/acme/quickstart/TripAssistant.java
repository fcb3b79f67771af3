package org.acme.quickstart;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** The README's quick start, copied verbatim (QuickStartTest checks that it still is). */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
public interface TripAssistant {

    /** A step whose answer is kept in the session (collected["answer.advise"]). */
    @SessionMemory(step = "advise")
    @SystemMessage("""
            You help the user plan a trip. Answer in one short paragraph.
            {inject:memory.block}""")
    String advise(@MemoryId String sessionId, @UserMessage String question);
}
