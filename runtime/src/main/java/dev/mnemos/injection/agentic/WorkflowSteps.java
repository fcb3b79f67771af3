package dev.mnemos.injection.agentic;

import dev.langchain4j.agentic.internal.AgenticScopeOwner;
import dev.langchain4j.agentic.observability.AgentInvocationError;
import dev.langchain4j.agentic.observability.AgentListener;
import dev.langchain4j.agentic.observability.AgentRequest;
import dev.langchain4j.agentic.observability.AgentResponse;
import dev.langchain4j.agentic.planner.AgentInstance;
import dev.langchain4j.agentic.scope.AgenticScope;
import dev.langchain4j.agentic.scope.AgenticScopeKey;

/**
 * {@link AgentSteps} as registered on one workflow bean, which its sub-agents inherit. When a call of the workflow
 * itself ends, its scope is dropped from the workflow's in-memory registry (LangChain4j agentic then saves it to
 * {@link SessionAgenticScopeStore} as usual): the next call loads it from the session, so a rollback or a change of the
 * session between two calls is what the next call sees.
 */
record WorkflowSteps(AgentSteps steps, AgenticScopeOwner workflow, Class<?> type) implements AgentListener {

    @Override
    public boolean inheritedBySubagents() {
        return true;
    }

    @Override
    public void beforeAgentInvocation(AgentRequest request) {
        steps.beforeAgentInvocation(request);
    }

    @Override
    public void afterAgentInvocation(AgentResponse response) {
        try {
            steps.afterAgentInvocation(response);
        } finally {
            ended(response.agent(), response.agenticScope());
        }
    }

    @Override
    public void onAgentInvocationError(AgentInvocationError error) {
        try {
            steps.onAgentInvocationError(error);
        } finally {
            ended(error.agent(), error.agenticScope());
        }
    }

    private void ended(AgentInstance agent, AgenticScope scope) {
        if (agent.parent() == null && agent.type() == type && scope != null && steps.keepsInSession(scope.memoryId())) {
            workflow.registry().getAllAgenticScopeKeysInMemory().remove(new AgenticScopeKey(type.getName(), scope.memoryId()));
        }
    }
}
