package dev.mnemos.injection.step;

import dev.mnemos.injection.SessionMemory;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Runs every {@link SessionMemory} AI-service method inside one read-before-write {@link StepCycle}; a streamed answer
 * is written when its stream ends ({@link StreamedSteps}).
 */
@SessionMemory
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class SessionMemoryInterceptor {

    private final StepCycle cycle;
    private final StreamedSteps streams;

    public SessionMemoryInterceptor(StepCycle cycle, StreamedSteps streams) {
        this.cycle = cycle;
        this.streams = streams;
    }

    @AroundInvoke
    Object step(InvocationContext context) throws Exception {
        AiMethod method = AiMethod.of(context.getMethod());
        return switch (method.result()) {
            case VALUE -> cycle.run(method, context.getParameters(), context::proceed);
            case STREAM -> streams.stream(method, context.getParameters(), context::proceed);
        };
    }
}
