package org.acme.trips;

import dev.langchain4j.agentic.AgenticServices;
import dev.langchain4j.agentic.UntypedAgent;
import dev.langchain4j.model.chat.ChatModel;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.ToolRun;
import dev.mnemos.injection.agentic.AgentSteps;
import dev.mnemos.injection.agentic.SessionAgenticScopeStore;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Which agents are steps beyond an annotated workflow's: the agents of a workflow built with {@code AgenticServices}
 * builders once the application attached it, a refusal naming the fix when it did not, and an agent's tool runs in its
 * step's trace.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
class AgenticStepsTest {

    @Inject
    BuiltBreakdown built;
    @Inject
    TripForecast forecast;
    @Inject
    ChatModel model;
    @Inject
    SessionStore sessions;
    @Inject
    AgentSteps agentSteps;
    @Inject
    StepTraceStore traces;

    @Test
    void theAgentsOfAnAttachedBuilderWorkflowAreSteps() {
        String id = freshId();
        int before = OpenAiStub.bodies().size();

        String answer = built.breakDown(id, "Two days in Braga");

        assertThat(answer).isEqualTo(OpenAiStub.ANSWER);
        List<String> bodies = Bodies.since(before);
        assertThat(bodies).hasSize(2);
        assertThat(Bodies.system(bodies.get(1))).contains("session: \"" + id + "\"", "answer.draft");
        List<SessionEvent> steps = steps(id);
        assertThat(steps).extracting(SessionEvent::note).containsExactly("step draft", "step review");
        assertThat(traces.find(id, steps.get(1).version()).orElseThrow().method()).isEqualTo("TripReviewer.review");
        assertThat(scopeKeys(id)).singleElement().asString()
                .startsWith(SessionAgenticScopeStore.key(BuiltBreakdown.class.getName()) + "-");
        assertThat(built.getAgenticScope(id).readState("draft", "")).isEqualTo(OpenAiStub.ANSWER);
    }

    @Test
    void aBuilderWorkflowNotAttachedIsRefusedBeforeItsSessionMemoryAgentCallsTheModel() {
        LooseBreakdown loose = AgenticServices.sequenceBuilder(LooseBreakdown.class)
                .subAgents(BuiltWorkflows.agent(TripDrafter.class, model)).outputKey("draft").build();
        String id = freshId();
        int before = OpenAiStub.bodies().size();

        assertThatThrownBy(() -> loose.breakDown(id, "A day in Coimbra"))
                .hasStackTraceContaining("workflow " + LooseBreakdown.class.getName())
                .hasStackTraceContaining("@SessionMemory agent " + TripDrafter.class.getName())
                .hasStackTraceContaining("AgentSteps.attach(workflow)");
        assertThat(Bodies.since(before)).isEmpty();
        assertThat(steps(id)).isEmpty();
        assertThat(sessions.get(id).collected()).doesNotContainKey("answer.draft");
    }

    @Test
    void theToolRunsOfAnAgentAreInItsStepsTrace() {
        String id = freshId();

        String answer = forecast.forecast(id, "[city:Porto] then [city:" + WeatherTools.NOWHERE + "]");

        assertThat(answer).isEqualTo(OpenAiStub.TOOL_ANSWER);
        SessionEvent step = steps(id).get(0);
        assertThat(step.note()).isEqualTo("step forecast");
        StepTrace trace = traces.find(id, step.version()).orElseThrow();
        assertThat(trace.method()).isEqualTo("TripForecaster.forecast");
        assertThat(trace.tools()).extracting(ToolRun::tool).containsExactly(OpenAiStub.TOOL, OpenAiStub.TOOL);
        assertThat(trace.tools().get(0).arguments()).contains("Porto");
        assertThat(trace.tools().get(0).result()).isEqualTo("\"Sunny and 24°C in Porto\"");
        assertThat(trace.tools().get(1).error()).contains(WeatherTools.NOWHERE);
        assertThat(sessions.get(id).collected()).containsEntry("tools.forecast",
                OpenAiStub.TOOL + ", " + OpenAiStub.TOOL + " (failed)");
    }

    @Test
    void twoBuilderWorkflowsOfOneInterfaceKeepTheirOwnScopesOnOneSession() {
        BuiltBreakdown first = agentSteps.attach(AgenticServices.sequenceBuilder(BuiltBreakdown.class).name("first")
                .subAgents(BuiltWorkflows.agent(TripDrafter.class, model)).outputKey("draft").build());
        BuiltBreakdown second = agentSteps.attach(AgenticServices.sequenceBuilder(BuiltBreakdown.class).name("second")
                .subAgents(BuiltWorkflows.agent(TripDrafter.class, model)).outputKey("draft").build());
        String id = freshId();

        first.breakDown(id, "A day in Lisbon");
        second.breakDown(id, "A day in Faro");

        assertThat(scopeKeys(id)).hasSize(2);
        assertThat(first.getAgenticScope(id).readState("request", "")).isEqualTo("A day in Lisbon");
        assertThat(second.getAgenticScope(id).readState("request", "")).isEqualTo("A day in Faro");
        assertThat(steps(id)).extracting(SessionEvent::note).containsExactly("step draft", "step draft");
    }

    @Test
    void anUntypedBuilderWorkflowGetsNoMemoryIdSoItRunsWithoutASession() {
        UntypedAgent untyped = agentSteps.attach(AgenticServices.sequenceBuilder()
                .subAgents(BuiltWorkflows.agent(TripDrafter.class, model)).outputKey("draft").build());
        String id = freshId();

        Object answer = untyped.invoke(Map.of("request", "A day in Braga", "@MemoryId", id, "sessionId", id));

        assertThat(answer).isEqualTo(OpenAiStub.ANSWER);
        assertThatThrownBy(() -> sessions.get(id)).isInstanceOf(SessionNotFoundException.class);
    }

    private List<String> scopeKeys(String id) {
        return sessions.get(id).collected().keySet().stream().filter(k -> k.startsWith(SessionAgenticScopeStore.KEY_PREFIX))
                .toList();
    }

    private List<SessionEvent> steps(String id) {
        return sessions.events(id, 1, 100).stream().filter(e -> e.note() != null && e.note().startsWith("step "))
                .toList();
    }

    private static String freshId() {
        return "trip-" + UUID.randomUUID();
    }
}
