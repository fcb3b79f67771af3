package dev.mnemos.agent;

import dev.mnemos.api.Tokens;
import dev.mnemos.llm.ScriptedChatModel;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole task through HTTP on the offline model: goal → constraints → v1 → v2 → rollback to v1 → end. */
@QuarkusTest
class AgentFlowTest {

    @Inject
    ScriptedChatModel model;

    @BeforeEach
    void offlineModel() {
        model.reset();
    }

    @Test
    void goalConstraintsPlansRollbackAndEndLeaveTheExpectedHistory() {
        AgentChat chat = new AgentChat(Tokens.user("u-" + UUID.randomUUID()));

        JsonPath goal = chat.say("I want to plan a 5-day trip to Japan");
        assertThat(goal.getString("intent")).isEqualTo("INSUFFICIENT_INFO");
        assertThat(goal.getString("goal")).isEqualTo("plan a 5-day trip to Japan");
        assertThat(goal.getString("stepPointer.name")).isEqualTo("collect-constraints");
        assertThat(goal.getString("question")).contains("budget");

        JsonPath constraints = chat.say("Budget 5000 yuan this time. No flights. Always keep my plans short.");
        assertThat(constraints.getString("intent")).isEqualTo("INSUFFICIENT_INFO");
        assertThat(constraints.getString("question")).isNull();
        String sessionId = chat.sessionId();
        JsonPath state = chat.get("/v1/sessions/" + sessionId);
        assertThat(state.getList("constraints.text")).containsExactly("Budget 5000 yuan this time", "No flights");
        assertThat(state.getList("constraints.scope")).containsExactly("TASK", "UNKNOWN");
        assertThat(state.getList("observations.text")).containsExactly("Always keep my plans short");
        assertThat(state.getList("observations.scope")).containsExactly("STABLE");
        assertThat(state.getList("observations.slot")).containsExactly("output.format");

        JsonPath planned = chat.say("OK, make the plan");
        assertThat(planned.getString("intent")).isEqualTo("READY_TO_DECOMPOSE");
        assertThat(planned.getList("plans.version")).containsExactly(1, 2);
        assertThat(planned.getList("plans.score", Double.class)).containsExactly(4.0, 10.0);
        assertThat(planned.getString("plans[0].feedback")).contains("\"Budget 5000 yuan this time\"", "Timeline", "Checkpoint");
        assertThat(planned.getString("plans[0].content")).doesNotContain("Budget 5000");
        assertThat(planned.getString("plans[1].content")).contains("Budget 5000 yuan this time", "No flights");
        assertThat(planned.getString("stepPointer.name")).isEqualTo("plan-evaluated");
        long beforeRollback = planned.getLong("version");

        JsonPath back = chat.say("Please go back to plan 1");
        assertThat(back.getString("intent")).isEqualTo("ROLLBACK_PLAN");
        assertThat(back.getList("plans.version")).containsExactly(1);
        assertThat(back.getLong("version")).isEqualTo(beforeRollback + 1);
        assertThat(back.getString("stepPointer.name")).isEqualTo("plan-evaluated");

        JsonPath end = chat.say("Done, thanks!");
        assertThat(end.getString("intent")).isEqualTo("END_TASK");
        assertThat(end.getString("status")).isEqualTo("ENDED");
        assertThat(end.getString("stepPointer.name")).isEqualTo("ended");

        List<Map<String, Object>> versions = chat.get("/v1/sessions/" + sessionId + "/versions").getList("$");
        assertThat(versions).extracting(v -> v.get("type") + ":" + v.get("note")).containsExactly(
                "CREATE:null", "PATCH:analyze-requirements", "PATCH:analyze-requirements",
                "PATCH:decompose-plan v1", "PATCH:evaluate-plan v1", "PATCH:decompose-plan v2", "PATCH:evaluate-plan v2",
                "ROLLBACK:null", "PATCH:end-task", "END:null");
        JsonPath v1Only = chat.get("/v1/sessions/" + sessionId + "/versions/" + (beforeRollback + 1));
        assertThat(v1Only.getList("plans.score", Double.class)).containsExactly(4.0);
    }
}
