package dev.mnemos.injection.trace;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.injection.ToolRun;
import dev.mnemos.injection.step.StepThread;
import io.quarkiverse.langchain4j.runtime.tool.QuarkusToolExecutor;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Records the tool executions of the {@link SessionMemory} step running on this thread. Quarkus LangChain4j runs
 * every tool of a blocking AI-service call through its tool-executor wrappers on the calling thread, inside the
 * step's model call; this wrapper times each one and notes its arguments, result or failure when the call is the
 * step's (a tool of another AI service called meanwhile is not the step's). It only collects: the step's own write
 * stores what was recorded. A failure is passed on unchanged.
 * <p>
 * A plain step's call is known by its memory id, the step's session. An agent of an agentic workflow is built by
 * LangChain4j agentic on Quarkus LangChain4j's AI services too, so its tools pass here as well, but its call's memory
 * id is not the session (the session is its workflow's memory id; the agent's own is Quarkus LangChain4j's default
 * one): its call is known by its AI-service interface ({@link #record(String, Class)}).
 */
@ApplicationScoped
public class ToolRuns implements QuarkusToolExecutor.Wrapper {

    private static final StepThread.Slot<Deque<Recording>> RECORDINGS = StepThread.slot(ArrayDeque::new);

    /** The tool runs of one step, recorded until it is closed. */
    public final class Recording implements AutoCloseable {
        private final String sessionId;
        /** The interface of the agent whose calls are the step's; null for a step known by its memory id. */
        private final Class<?> agent;
        private final List<ToolRun> runs = new ArrayList<>();

        private Recording(String sessionId, Class<?> agent) {
            this.sessionId = sessionId;
            this.agent = agent;
        }

        /** What was recorded so far, oldest first. */
        public List<ToolRun> runs() {
            return List.copyOf(runs);
        }

        @Override
        public void close() {
            Deque<Recording> stack = RECORDINGS.get();
            stack.remove(this);
            if (stack.isEmpty()) {
                RECORDINGS.remove();
            }
        }
    }

    /** Records the tool runs for session {@code sessionId} on this thread until the recording is closed. */
    public Recording record(String sessionId) {
        return push(new Recording(sessionId, null));
    }

    /**
     * Records, on this thread until the recording is closed, the tool runs of the calls of the agent interface
     * {@code agent} (a step of session {@code sessionId} run by an agentic workflow, whatever its call's memory id).
     */
    public Recording record(String sessionId, Class<?> agent) {
        return push(new Recording(sessionId, agent));
    }

    private Recording push(Recording recording) {
        RECORDINGS.get().push(recording);
        return recording;
    }

    @Override
    public ToolExecutionResult wrap(ToolExecutionRequest request, InvocationContext context,
            BiFunction<ToolExecutionRequest, InvocationContext, ToolExecutionResult> execution, QuarkusToolExecutor executor) {
        Recording recording = RECORDINGS.get().peek();
        if (recording == null || !belongs(recording, context)) {
            return execution.apply(request, context);
        }
        long start = System.nanoTime();
        try {
            ToolExecutionResult result = execution.apply(request, context);
            long nanos = System.nanoTime() - start;
            String text = result == null ? null : result.resultText();
            boolean failed = result != null && result.isError();
            recording.runs.add(ToolRun.of(request.name(), request.arguments(), failed ? null : text,
                    failed ? text : null, nanos));
            return result;
        } catch (Throwable e) {
            recording.runs.add(ToolRun.of(request.name(), request.arguments(), null, message(e), System.nanoTime() - start));
            throw e;
        }
    }

    private static boolean belongs(Recording recording, InvocationContext context) {
        if (recording.agent != null) {
            return context != null && recording.agent.getName().equals(context.interfaceName());
        }
        Object memoryId = context == null ? null : context.chatMemoryId();
        return memoryId == null || recording.sessionId.equals(memoryId.toString());
    }

    private static String message(Throwable e) {
        return e.getMessage() == null ? "the tool failed without a message" : e.getMessage();
    }
}
