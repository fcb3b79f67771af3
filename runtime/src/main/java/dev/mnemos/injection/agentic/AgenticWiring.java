package dev.mnemos.injection.agentic;

import dev.langchain4j.agentic.internal.AgenticScopeOwner;
import dev.langchain4j.agentic.internal.InternalAgent;
import dev.langchain4j.agentic.scope.AgenticScopePersister;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.ClientProxy;

import java.util.Set;

/**
 * Wires Mnemos into LangChain4j agentic at start-up ({@link AgenticRecorder}):
 * {@link SessionAgenticScopeStore} becomes the store of every workflow's {@code AgenticScope}, and every workflow bean
 * gets {@link AgentSteps} as a listener its sub-agents inherit. The workflows are created here, before their first
 * call, so that both are in place for it.
 */
final class AgenticWiring {

    private AgenticWiring() {
    }

    /** @param workflows the class names of the application's workflow interfaces ({@code @SequenceAgent}, …) */
    static void wire(Set<String> workflows) {
        ArcContainer container = Arc.container();
        AgenticScopePersister.setStore(container.instance(SessionAgenticScopeStore.class).get());
        AgentSteps steps = container.instance(AgentSteps.class).get();
        for (String name : workflows) {
            Class<?> type = load(name);
            Object workflow = ClientProxy.unwrap(container.select(type).get());
            if (workflow instanceof InternalAgent && workflow instanceof AgenticScopeOwner) {
                steps.attachBean(workflow);
            }
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("workflow " + name + " is not on the class path", e);
        }
    }
}
