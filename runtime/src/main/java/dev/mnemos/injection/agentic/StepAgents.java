package dev.mnemos.injection.agentic;

import dev.langchain4j.agentic.Agent;
import dev.mnemos.injection.SessionMemory;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which agents are session steps: an agent type whose {@code @Agent} method carries {@link SessionMemory} (on the
 * method or on its interface), whether LangChain4j agentic built it from the annotations or from a builder.
 */
final class StepAgents {

    private static final Map<Class<?>, Optional<Method>> METHODS = new ConcurrentHashMap<>();

    private StepAgents() {
    }

    /** The {@link SessionMemory} {@code @Agent} method of an agent type; empty for other agents and for none. */
    static Optional<Method> stepMethod(Class<?> type) {
        if (type == null) {
            return Optional.empty();
        }
        return METHODS.computeIfAbsent(type, t -> Arrays.stream(t.getMethods())
                .filter(m -> m.isAnnotationPresent(Agent.class))
                .filter(m -> m.isAnnotationPresent(SessionMemory.class)
                        || m.getDeclaringClass().isAnnotationPresent(SessionMemory.class))
                .findFirst());
    }

    static boolean isStep(Class<?> type) {
        return stepMethod(type).isPresent();
    }
}
