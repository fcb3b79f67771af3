package dev.mnemos.injection;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/** Runs every {@link SessionMemory} AI-service method inside one read-before-write {@link StepCycle}. */
@SessionMemory
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class SessionMemoryInterceptor {

    private final StepCycle cycle;

    public SessionMemoryInterceptor(StepCycle cycle) {
        this.cycle = cycle;
    }

    @AroundInvoke
    Object step(InvocationContext context) throws Exception {
        return cycle.run(AiMethod.of(context.getMethod()), context.getParameters(), context::proceed);
    }
}
