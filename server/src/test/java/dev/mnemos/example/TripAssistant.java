package dev.mnemos.example;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.injection.StepOutput;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/** Your own AI service, with Mnemos: one annotation per method, one placeholder per prompt. */
@ApplicationScoped
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
public interface TripAssistant {

    /** A step whose answer is kept in the session (collected["answer.advise"]). */
    @SessionMemory(step = "advise")
    @SystemMessage("""
            #prompt: example-advise
            You help the user plan a trip. Answer in one short paragraph.
            {inject:memory.block}""")
    String advise(@MemoryId String sessionId, @UserMessage String question);

    /** A step whose answer becomes the next plan version of the session. */
    @SessionMemory(step = "itinerary", output = StepOutput.PLAN)
    @SystemMessage("""
            #prompt: example-itinerary
            Write a numbered day-by-day itinerary that respects every constraint.
            {inject:memory.block}""")
    String itinerary(@MemoryId String sessionId, @UserMessage String request);
}
