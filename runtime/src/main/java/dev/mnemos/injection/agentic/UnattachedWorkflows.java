package dev.mnemos.injection.agentic;

import dev.langchain4j.agentic.scope.AgenticScope;
import dev.langchain4j.invocation.LangChain4jManaged;
import dev.langchain4j.service.AiServiceContext;
import io.quarkiverse.langchain4j.runtime.aiservice.AiServiceMethodImplementationSupport;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.lang.reflect.Field;
import java.util.Optional;
import java.util.function.Function;

/**
 * Refuses a {@code @SessionMemory} agent of a workflow Mnemos does not listen to (built with {@code AgenticServices}
 * builders and not passed to {@link AgentSteps#attach}) before its model is called: LangChain4j agentic builds agents
 * on Quarkus LangChain4j's AI services, so every agent call passes this wrapper on the agent's thread, before the
 * model request. The workflow is known by the scope the call runs in, which {@link SessionAgenticScopeStore} saw
 * created or loaded for a session; an agent run outside a workflow, or in a workflow without a session, is let through
 * as before.
 * <p>
 * Quarkus LangChain4j's wrapper input does not publish which AI service is called; its context is read reflectively.
 * Should that field ever be missing, the refusal falls back to {@link SessionAgenticScopeStore}'s, after the agent's
 * model call.
 */
@ApplicationScoped
public class UnattachedWorkflows implements AiServiceMethodImplementationSupport.Wrapper {

    private static final Logger LOG = Logger.getLogger(UnattachedWorkflows.class);
    private static final Field CONTEXT = contextField();

    private final SessionAgenticScopeStore scopes;

    public UnattachedWorkflows(SessionAgenticScopeStore scopes) {
        this.scopes = scopes;
    }

    @Override
    public Object wrap(AiServiceMethodImplementationSupport.Input input,
            Function<AiServiceMethodImplementationSupport.Input, Object> fun) {
        service(input).filter(StepAgents::isStep).ifPresent(this::refuseUnattached);
        return fun.apply(input);
    }

    /** @throws IllegalStateException when the workflow {@code agent} runs in is a session workflow not attached */
    private void refuseUnattached(Class<?> agent) {
        AgenticScope scope = LangChain4jManaged.current(AgenticScope.class);
        scopes.unattachedWorkflow(scope).ifPresent(workflow -> {
            throw SessionAgenticScopeStore.unattached(workflow, agent);
        });
    }

    /** The AI-service interface {@code input} calls; empty when it cannot be read. */
    private static Optional<Class<?>> service(AiServiceMethodImplementationSupport.Input input) {
        if (CONTEXT == null) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(((AiServiceContext) CONTEXT.get(input)).aiServiceClass);
        } catch (IllegalAccessException | ClassCastException e) {
            return Optional.empty();
        }
    }

    private static Field contextField() {
        try {
            Field field = AiServiceMethodImplementationSupport.Input.class.getDeclaredField("context");
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException | RuntimeException e) {
            LOG.debugf("unattached workflows are refused after their agent's model call: %s", e);
            return null;
        }
    }
}
