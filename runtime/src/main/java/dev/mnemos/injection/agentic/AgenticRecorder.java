package dev.mnemos.injection.agentic;

import io.quarkus.runtime.annotations.Recorder;

import java.util.Set;

/**
 * Wires Mnemos into LangChain4j agentic at start-up, only when the application uses quarkus-langchain4j-agentic
 * ({@link AgenticWiring}). It names no LangChain4j agentic type itself, so the build can load it without them.
 */
@Recorder
public class AgenticRecorder {

    /** @param workflows the class names of the application's workflow interfaces ({@code @SequenceAgent}, …) */
    public void wire(Set<String> workflows) {
        AgenticWiring.wire(workflows);
    }
}
