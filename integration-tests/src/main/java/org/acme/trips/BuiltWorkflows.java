package org.acme.trips;

import dev.langchain4j.agentic.AgenticServices;
import dev.langchain4j.model.chat.ChatModel;
import dev.mnemos.injection.agentic.AgentSteps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/**
 * A workflow built with {@code AgenticServices} builders rather than annotations: no bean of Quarkus LangChain4j's, so
 * the application hands it to {@link AgentSteps#attach} to make its {@code @SessionMemory} agents session steps.
 */
@ApplicationScoped
public class BuiltWorkflows {

    @Produces
    @ApplicationScoped
    BuiltBreakdown breakdown(ChatModel model, AgentSteps steps) {
        return steps.attach(AgenticServices.sequenceBuilder(BuiltBreakdown.class)
                .subAgents(agent(TripDrafter.class, model), agent(TripReviewer.class, model)).outputKey("review").build());
    }

    /** An agent of the application's {@code @Agent} interface, built for one workflow. */
    static <T> T agent(Class<T> type, ChatModel model) {
        return AgenticServices.agentBuilder(type).chatModel(model).build();
    }
}
