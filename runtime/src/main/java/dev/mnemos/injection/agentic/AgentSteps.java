package dev.mnemos.injection.agentic;

import dev.langchain4j.agentic.internal.AgenticScopeOwner;
import dev.langchain4j.agentic.internal.InternalAgent;
import dev.langchain4j.agentic.observability.AgentInvocationError;
import dev.langchain4j.agentic.observability.AgentListener;
import dev.langchain4j.agentic.observability.AgentRequest;
import dev.langchain4j.agentic.observability.AgentResponse;
import dev.langchain4j.agentic.planner.AgentInstance;
import dev.langchain4j.agentic.scope.AgenticScope;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.V;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.injection.step.AiMethod;
import dev.mnemos.injection.step.StepCycle;
import dev.mnemos.injection.step.StepThread;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayDeque;
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
 * goes on. The first such failure of a call is kept in its scope ({@link #failure}), for a workflow whose next agent
 * must not run without the step before it. An agent of a workflow without a memory id (an ephemeral scope) has no
 * session: it runs without a block, with one warning per agent.
 * <p>
 * A workflow built with {@code AgenticServices} builders is no bean: {@link #attach} makes its
 * {@code @SessionMemory} agents steps.
 */
@ApplicationScoped
public class AgentSteps implements AgentListener {

    private static final Logger LOG = Logger.getLogger(AgentSteps.class);
    /** The scope's execution context (not stored with the scope) that keeps the call's first step failure. */
    private static final String FAILURE = "mnemos.step-failure";

    private final StepCycle cycle;
    private final SessionAgenticScopeStore scopes;
    /** The steps opened on this thread and not yet closed, newest first (a sub-workflow's agents nest). */
    private static final StepThread.Slot<Deque<Running>> RUNNING = StepThread.slot(ArrayDeque::new);
    private final Set<Class<?>> warned = ConcurrentHashMap.newKeySet();

    private record Running(AgentInstance agent, StepCycle.Opened step) {
    }

    public AgentSteps(StepCycle cycle, SessionAgenticScopeStore scopes) {
        this.cycle = cycle;
        this.scopes = scopes;
    }

    /**
     * Makes the {@code @SessionMemory} agents of a workflow built with {@code AgenticServices} builders steps of the
     * session its memory id names, as for a workflow bean. Call it once per workflow, before its first call, and call
     * the workflow it returns. Its scope is kept in the session under a key of its own, derived from its interface,
     * name, output key and sub-agents ({@link BuilderWorkflows}), so several builder workflows of one interface (every
     * untyped one is an {@code UntypedAgent}) keep separate scopes on one session.
     *
     * @return {@code workflow}, each of whose calls keeps its scope under its own key
     * @throws IllegalArgumentException when {@code workflow} is not a LangChain4j agentic workflow
     */
    public <T> T attach(T workflow) {
        InternalAgent agent = listenTo(workflow);
        String scopeId = BuilderWorkflows.scopeId(agent);
        scopes.attached(scopeId);
        return BuilderWorkflows.calledUnder(workflow, scopeId, scopes);
    }

    /** Makes the {@code @SessionMemory} agents of workflow bean {@code workflow} steps; its scope is its interface's. */
    void attachBean(Object workflow) {
        scopes.attached(listenTo(workflow).type().getName());
    }

    private InternalAgent listenTo(Object workflow) {
        if (!(workflow instanceof InternalAgent agent) || !(workflow instanceof AgenticScopeOwner owner)) {
            throw new IllegalArgumentException("not a LangChain4j agentic workflow: " + workflow);
        }
        agent.registerInheritedParentListener(new WorkflowSteps(this, owner, agent.type()));
        return agent;
    }

    /**
     * Why a {@code @SessionMemory} agent of the current call of a workflow had no step: the first failure to read or
     * write one in {@code scope}; empty when every step so far was read and written.
     */
    public static Optional<RuntimeException> failure(AgenticScope scope) {
        return Optional.ofNullable(scope.executionContextAs(FAILURE, RuntimeException.class));
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
        Optional<Method> method = StepAgents.stepMethod(request.agent().type());
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
        try {
            RUNNING.get().push(new Running(request.agent(), cycle.open(step, args(method.get(), request.inputs(), memoryId),
                    request.agent().type())));
        } catch (RuntimeException e) {
            throw failed(request.agenticScope(), e);
        }
    }

    @Override
    public void afterAgentInvocation(AgentResponse response) {
        take(response.agent()).ifPresent(step -> {
            try {
                cycle.close(step, response.output());
            } catch (RuntimeException e) {
                throw failed(response.agenticScope(), e);
            }
        });
    }

    @Override
    public void onAgentInvocationError(AgentInvocationError error) {
        take(error.agent()).ifPresent(step -> cycle.abandon(step, error.error()));
    }

    /** Keeps the call's first step failure in its scope; {@code e} to be thrown on. */
    private static RuntimeException failed(AgenticScope scope, RuntimeException e) {
        if (scope != null && failure(scope).isEmpty()) {
            scope.writeExecutionContext(FAILURE, e);
        }
        return e;
    }

    /** The open step of {@code agent} on this thread, removed; empty when its call opened none. */
    private Optional<StepCycle.Opened> take(AgentInstance agent) {
        Deque<Running> steps = RUNNING.get();
        for (Running step : steps) {
            if (step.agent() == agent) {
                steps.remove(step);
                if (steps.isEmpty()) {
                    RUNNING.remove();
                }
                return Optional.of(step.step());
            }
        }
        return Optional.empty();
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
