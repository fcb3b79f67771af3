package dev.mnemos.injection;

import dev.mnemos.session.SessionState;

import java.lang.reflect.Method;
import java.util.List;

/**
 * One finished call of a {@link SessionMemory} method, as a {@link StepWriter} sees it.
 *
 * @param method the AI-service interface method
 * @param args the call's arguments (unmodifiable view; elements may be null)
 * @param result what the method returned (a String, a record, …; may be null)
 * @param state the session state the write applies to (re-read after a lost compare-and-set); it
 *        carries only the newest plan versions (see {@code SessionStore.recent}), everything else whole
 * @param step the step name: the annotation's {@code step()} or the method name
 * @param output TEXT or PLAN
 * @param userMessage the user's message of this step, or null when the method has none
 * @param tools the tools the model call ran, in order ({@link ToolRun}); empty when none ran or they were not recorded
 *        (a streamed step)
 */
public record StepCall(Method method, List<Object> args, Object result, SessionState state,
        String step, StepOutput output, String userMessage, List<ToolRun> tools) {

    /** A call that ran no tools. */
    public StepCall(Method method, List<Object> args, Object result, SessionState state, String step, StepOutput output,
            String userMessage) {
        this(method, args, result, state, step, output, userMessage, List.of());
    }

    public StepCall {
        tools = tools == null ? List.of() : List.copyOf(tools);
    }

    /** The step index the pointer moves to: one past the loaded one. */
    public int nextIndex() {
        return state.stepPointer() == null ? 1 : state.stepPointer().index() + 1;
    }
}
