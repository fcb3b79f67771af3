package dev.mnemos.testsupport;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.injection.StepOutput;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** A small agent of the kind Mnemos users write: every method reads and writes session memory. */
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
@ApplicationScoped
public interface TripAi {

    /** The answer of a step, as a record. */
    record Advice(String city, int days) {
    }

    @SessionMemory(step = "chat")
    @SystemMessage("#prompt: trip\nYou help plan trips.\n{inject:memory.block}")
    String chat(@MemoryId String sessionId, @UserMessage String message);

    @SessionMemory(step = "plan", output = StepOutput.PLAN)
    @SystemMessage("#prompt: trip-plan\nYou write plans.\n{inject:memory.block(sessionId)}")
    String plan(@MemoryId String sessionId, @UserMessage String message);

    @SessionMemory(step = "advise")
    @SystemMessage("#prompt: trip-advise\nAnswer as JSON.\n{inject:memory.block}")
    Advice advise(@MemoryId String sessionId, @UserMessage String message);

    @SessionMemory(step = "note", writer = MessageKeyWriter.class)
    @SystemMessage("#prompt: trip-note\n{inject:memory.block}")
    String note(@MemoryId String sessionId, @UserMessage String message);
}
