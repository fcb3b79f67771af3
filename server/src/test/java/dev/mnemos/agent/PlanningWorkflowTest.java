package dev.mnemos.agent;

import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.agentic.SessionAgenticScopeStore;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planning turn is one call of the {@link PlanningLoop} workflow on the session: its two model agents are steps
 * on the server's model, its scope adds no version, a plan that is not written stops it before the evaluation, and a
 * session rolled back or forked through the API is where its next call starts.
 */
@QuarkusTest
class PlanningWorkflowTest {

    @Inject
    ScriptedChatModel model;
    @Inject
    StepTraceStore traces;

    private final String user = "u-" + UUID.randomUUID();
    private final AgentChat chat = new AgentChat(Tokens.user(user));

    @BeforeEach
    void scriptedModel() {
        model.reset();
        model.script(PlanningWorkflowTest::answer);
    }

    @Test
    void theTurnsAgentsAreStepsOnTheServersModelAndItsScopeAddsNoVersion() {
        JsonPath planned = plan();

        assertThat(planned.getList("plans.score", Double.class)).containsExactly(5.0, 9.0);
        List<Map<String, Object>> history = chat.get("/v1/sessions/" + chat.sessionId() + "/versions").getList("$");
        List<Object> notes = history.stream().map(e -> e.get("note")).toList();
        assertThat(notes.subList(notes.size() - 6, notes.size())).containsExactly("step route-intent",
                "step analyze-requirements", "step decompose-plan", "step evaluate-plan", "step decompose-plan",
                "step evaluate-plan");
        assertThat(notes).noneMatch(n -> String.valueOf(n).startsWith("agentic scope"));
        assertThat(planned.getLong("version")).isEqualTo(((Number) history.get(history.size() - 1).get("version")).longValue());
        assertThat(chat.get("/v1/sessions/" + chat.sessionId()).getMap("collected", String.class, String.class).keySet())
                .noneMatch(k -> k.startsWith(SessionAgenticScopeStore.KEY_PREFIX));
        assertThat(model.requests()).extracting(Prompts::name).endsWith("decompose-plan", "evaluate-plan",
                "decompose-plan", "evaluate-plan");
        long rewritten = ((Number) history.get(history.size() - 2).get("version")).longValue();
        StepTrace rewrite = traces.find(chat.sessionId(), rewritten).orElseThrow();
        assertThat(rewrite.method()).isEqualTo("PlanDecomposer.decompose");
        assertThat(rewrite.injected().block()).contains("plan v1");
    }

    @Test
    void aPlanThatIsNotWrittenStopsTheLoopBeforeItsEvaluation() {
        chat.say("I'd like to learn Spanish");
        chat.say("I have 3 months, and this time only 20 euros");
        long before = chat.get("/v1/sessions/" + chat.sessionId()).getLong("version");
        model.reset();
        model.script(r -> Prompts.name(r).equals("decompose-plan") ? "{\"title\":\"empty\",\"steps\":[]}" : answer(r));

        given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON)
                .body(Map.of("sessionId", chat.sessionId(), "message", "Sounds good, draft it"))
                .post("/v1/agent/chat").then().statusCode(502);

        assertThat(model.requests()).extracting(Prompts::name).containsExactly("route-intent", "analyze-requirements",
                "decompose-plan");
        JsonPath state = chat.get("/v1/sessions/" + chat.sessionId());
        assertThat(state.getList("plans")).isEmpty();
        assertThat(state.getLong("version")).isEqualTo(before + 2);
    }

    @Test
    void theNextTurnStartsFromTheSessionRolledBackOrForkedThroughTheApi() {
        plan();
        String id = chat.sessionId();
        List<Map<String, Object>> history = chat.get("/v1/sessions/" + id + "/versions").getList("$");
        long firstEvaluated = history.stream().filter(e -> "step evaluate-plan".equals(e.get("note"))).findFirst()
                .map(e -> ((Number) e.get("version")).longValue()).orElseThrow();
        long latest = ((Number) history.get(history.size() - 1).get("version")).longValue();
        given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON)
                .body(Map.of("toVersion", firstEvaluated, "expectedVersion", latest))
                .post("/v1/sessions/{id}/rollback", id).then().statusCode(200);
        String forkId = given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON)
                .body(Map.of("fromVersion", latest)).post("/v1/sessions/{id}/fork", id).then().statusCode(201)
                .extract().path("sessionId");
        model.reset();

        JsonPath revised = chat.say("Please improve it");
        JsonPath forked = new AgentChat(Tokens.user(user)).resume(forkId).say("Please improve it");

        assertThat(revised.getList("plans.version")).containsExactly(1, 2);
        assertThat(forked.getList("plans.version")).containsExactly(1, 2, 3);
        List<ChatRequest> decompositions = model.requests().stream().filter(r -> Prompts.name(r).equals("decompose-plan"))
                .toList();
        assertThat(decompositions).hasSize(2);
        assertThat(Prompts.brief(decompositions.get(0), "Task")).isEqualTo("Write plan version 2.");
        assertThat(Prompts.brief(decompositions.get(0), "Feedback")).isEqualTo("No weekly review");
        assertThat(Prompts.fenced(decompositions.get(0), "SESSION MEMORY")).contains(id);
        assertThat(Prompts.brief(decompositions.get(1), "Task")).isEqualTo("Write plan version 3.");
        assertThat(Prompts.brief(decompositions.get(1), "Feedback")).isEqualTo("Solid");
        assertThat(Prompts.fenced(decompositions.get(1), "SESSION MEMORY")).contains(forkId);
    }

    /** Goal, constraints, then the planning turn: plan v1 (5/10), rewritten into v2 (9/10). */
    private JsonPath plan() {
        chat.say("I'd like to learn Spanish");
        chat.say("I have 3 months, and this time only 20 euros");
        return chat.say("Sounds good, draft it");
    }

    private static String answer(ChatRequest request) {
        if (Prompts.name(request).equals("route-intent") && Prompts.user(request).contains("improve it")) {
            return "{\"intent\":\"REVISE_PLAN\"}";
        }
        return ScriptedFlowTest.answer(request);
    }
}
