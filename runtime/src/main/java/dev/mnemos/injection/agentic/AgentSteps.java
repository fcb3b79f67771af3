package dev.mnemos.injection.agentic;

import dev.langchain4j.agentic.Agent;
import dev.langchain4j.agentic.observability.AgentInvocationError;
import dev.langchain4j.agentic.observability.AgentListener;
import dev.langchain4j.agentic.observability.AgentRequest;
import dev.langchain4j.agentic.observability.AgentResponse;
import dev.langchain4j.agentic.planner.AgentInstance;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.V;
import dev.mnemos.injection.AiMethod;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.injection.StepCycle;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs every {@link SessionMemory} {@code @Agent} method of an agentic workflow as one step of the session the
 * workflow's memory id names: LangChain4j agentic calls this listener on the agent's thread right before the agent
 * (load, render, make the block current for its {@code {inject:memory.block}}) and right after it (write one
 * versioned step with its answer and its trace), so the next agent's block shows what this one wrote. The
 * agents are built by LangChain4j agentic, not by CDI, so the {@code @SessionMemory} interceptor never sees them;
 * {@link AgenticRecorder} hands this listener to every workflow bean, and its sub-agents inherit it.
 * <p>
 * LangChain4j agentic logs an exception thrown by a listener and goes on: a step whose session cannot be read is
 * logged and its agent runs without a block (and writes nothing); a step whose write fails is logged and the workflow
 * goes on. An agent of a workflow without a memory id (an ephemeral scope) has no session: it runs without a block,
 * with one warning per agent.
 */
@ApplicationScoped
public class AgentSteps implements AgentListener {

    private static final Logger LOG = Logger.getLogger(AgentSteps.class);

    private final StepCycle cycle;
    private final SessionAgenticScopeStore scopes;
    /** The steps opened on this thread and not yet closed, newest first (a sub-workflow's agents nest). */
    private final ThreadLocal<Deque<Running>> running = ThreadLocal.withInitial(ArrayDeque::new);
    private final Map<Class<?>, Optional<Method>> stepMethods = new ConcurrentHashMap<>();
    private final Set<Class<?>> warned = ConcurrentHashMap.newKeySet();

    private record Running(AgentInstance agent, StepCycle.Opened step) {
    }

    public AgentSteps(StepCycle cycle, SessionAgenticScopeStore scopes) {
        this.cycle = cycle;
        this.scopes = scopes;
    }

    /** Whether the workflow of memory id {@code memoryId} keeps its scope, and its steps, in the session it names. */
    public boolean keepsInSession(Object memoryId) {
        return scopes.holds(memoryId);
    }

    /** Sub-agents inherit this listener from the workflow it is registered on. */
    @Override
    public boolean inheritedBySubagents() {
        return true;
    }

    @Override
    public void beforeAgentInvocation(AgentRequest request) {
        Optional<Method> method = stepMethod(request.agent().type());
        if (method.isEmpty()) {
            return;
        }
        Object memoryId = request.agenticScope().memoryId();
        if (!scopes.holds(memoryId)) {
            if (warned.add(request.agent().type())) {
                LOG.warnf("@SessionMemory agent %s ran in a workflow without a @MemoryId session id: no session is read"
                        + " or written; give the workflow's method a @MemoryId String sessionId", method.get());
            }
            return;
        }
        AiMethod step = AiMethod.ofAgent(method.get());
        if (step.result() != AiMethod.Result.VALUE) {
            return;
        }
        running.get().push(new Running(request.agent(), cycle.open(step, args(method.get(), request.inputs(), memoryId))));
    }

    @Override
    public void afterAgentInvocation(AgentResponse response) {
        take(response.agent()).ifPresent(step -> cycle.close(step, response.output()));
    }

    @Override
    public void onAgentInvocationError(AgentInvocationError error) {
        take(error.agent()).ifPresent(step -> cycle.abandon(step, error.error()));
    }

    /** The open step of {@code agent} on this thread, removed; empty when its call opened none. */
    private Optional<StepCycle.Opened> take(AgentInstance agent) {
        Deque<Running> steps = running.get();
        for (Running step : steps) {
            if (step.agent() == agent) {
                steps.remove(step);
                if (steps.isEmpty()) {
                    running.remove();
                }
                return Optional.of(step.step());
            }
        }
        return Optional.empty();
    }

    /** The {@code @Agent} method of an agent type that is a {@link SessionMemory} step (on it or its interface). */
    private Optional<Method> stepMethod(Class<?> type) {
        if (type == null) {
            return Optional.empty();
        }
        return stepMethods.computeIfAbsent(type, t -> Arrays.stream(t.getMethods())
                .filter(m -> m.isAnnotationPresent(Agent.class))
                .filter(m -> m.isAnnotationPresent(SessionMemory.class)
                        || m.getDeclaringClass().isAnnotationPresent(SessionMemory.class))
                .findFirst());
    }

    /** The method's arguments from the agent's named inputs, with the workflow's memory id appended. */
    private static Object[] args(Method method, Map<String, Object> inputs, Object memoryId) {
        Parameter[] parameters = method.getParameters();
        Object[] args = new Object[parameters.length + 1];
        for (int i = 0; i < parameters.length; i++) {
            args[i] = parameters[i].isAnnotationPresent(MemoryId.class) ? memoryId : inputs.get(name(parameters[i]));
        }
        args[parameters.length] = memoryId;
        return args;
    }

    private static String name(Parameter parameter) {
        V named = parameter.getAnnotation(V.class);
        return named != null ? named.value() : parameter.getName();
    }
}
