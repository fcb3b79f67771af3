package org.acme.packing;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** Two steps of one packing task: a first list, then a check of that list (which the session carries to it). */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
public interface PackingAssistant {

    /** The first list; its answer is kept in the session as {@code collected["answer.list"]}. */
    @SessionMemory(step = "list")
    @SystemMessage("""
            You help the user pack for a trip. Answer with a short list.
            {inject:memory.block}""")
    String list(@MemoryId String sessionId, @UserMessage String question);

    /** A check of the list written by the step before, read from the session's memory block. */
    @SessionMemory(step = "check")
    @SystemMessage("""
            You check the packing list already made in this session and name what is missing.
            {inject:memory.block}""")
    String check(@MemoryId String sessionId, @UserMessage String question);
}
