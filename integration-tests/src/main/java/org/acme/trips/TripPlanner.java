package org.acme.trips;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.injection.StepOutput;
import io.quarkiverse.langchain4j.RegisterAiService;
import io.smallrye.mutiny.Multi;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The application's own AI service. Its model is the application's (the OpenAI extension, set up
 * by properties); Mnemos only adds the read-before-write step and the memory block.
 */
@RegisterAiService
@ApplicationScoped
public interface TripPlanner {

    @SessionMemory(step = "suggest")
    @SystemMessage("""
            You are a travel planner. Answer in at most two sentences and respect every constraint.
            {inject:memory.block}""")
    String suggest(@MemoryId String sessionId, @UserMessage String request);

    /** A day-by-day itinerary: each answer is a new plan version of the session. */
    @SessionMemory(step = "itinerary", output = StepOutput.PLAN)
    @SystemMessage("""
            You are a travel planner. Write the itinerary as a numbered list of days.
            {inject:memory.block}""")
    String itinerary(@MemoryId String sessionId, @UserMessage String request);

    /** The same question, its answer streamed token by token; the step is written once the stream completes. */
    @SessionMemory(step = "suggest")
    @SystemMessage("""
            You are a travel planner. Answer in at most two sentences and respect every constraint.
            {inject:memory.block}""")
    Multi<String> stream(@MemoryId String sessionId, @UserMessage String request);
}
