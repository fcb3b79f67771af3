package dev.mnemos.agent;

import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.testsupport.Tokens;
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

    private static final String ROUTE = "PATCH:step route-intent";

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

        JsonPath constraints = chat.say("Budget 5000 yuan this time. No flights. I prefer trains this time. "
                + "Always keep my plans short.");
        assertThat(constraints.getString("intent")).isEqualTo("INSUFFICIENT_INFO");
        assertThat(constraints.getString("question")).isNull();
        String sessionId = chat.sessionId();
        JsonPath state = chat.get("/v1/sessions/" + sessionId);
        assertThat(state.getList("constraints.text")).containsExactly("Budget 5000 yuan this time", "No flights");
        assertThat(state.getList("constraints.scope")).containsExactly("TASK", "UNKNOWN");
        assertThat(state.getList("observations.text")).as("the standing statement is captured before the analysis")
                .containsExactly("Always keep my plans short", "I prefer trains this time");
        assertThat(state.getList("observations.scope")).containsExactly("STABLE", "TASK");
        assertThat(state.getList("observations.slot")).containsExactly(null, null);

        JsonPath planned = chat.say("OK, make the plan");
        assertThat(planned.getString("intent")).isEqualTo("READY_TO_DECOMPOSE");
        assertThat(planned.getList("plans.version")).containsExactly(1, 2);
        assertThat(planned.getList("plans.score", Double.class)).containsExactly(4.0, 10.0);
        assertThat(planned.getString("plans[0].feedback")).contains("\"Budget 5000 yuan this time\"", "Timeline", "Checkpoint");
        assertThat(planned.getString("plans[0].content")).doesNotContain("Budget 5000");
        assertThat(planned.getString("plans[1].content")).contains("Budget 5000 yuan this time", "No flights");
        assertThat(planned.getString("stepPointer.name")).isEqualTo("plan-evaluated");
        long beforeRollback = planned.getLong("version");
        long rewrite = beforeRollback - 1;
        JsonPath trace = chat.get("/v1/sessions/" + sessionId + "/steps/" + rewrite + "/trace");
        assertThat(trace.getString("step")).isEqualTo("decompose-plan");
        assertThat(trace.getLong("read.sessionVersion")).isEqualTo(rewrite - 1);
        assertThat(trace.getList("injected.plans")).containsExactly(1);
        assertThat(trace.getString("injected.block")).contains("Budget 5000 yuan this time", "No flights");
        assertThat(trace.getList("written.fields")).contains("addPlan", "stepPointer");

        JsonPath back = chat.say("Please go back to plan 1");
        assertThat(back.getString("intent")).isEqualTo("ROLLBACK_PLAN");
        assertThat(back.getList("plans.version")).containsExactly(1);
        assertThat(back.getLong("version")).isEqualTo(beforeRollback + 2);
        assertThat(back.getString("stepPointer.name")).isEqualTo("plan-evaluated");

        JsonPath end = chat.say("Done, thanks!");
        assertThat(end.getString("intent")).isEqualTo("END_TASK");
        assertThat(end.getString("status")).isEqualTo("ENDED");
        assertThat(end.getString("stepPointer.name")).isEqualTo("ended");
        assertThat(end.getList("promotion.promoted.text")).containsExactly("Always keep my plans short");
        assertThat(end.getList("promotion.rejected.text")).containsExactly("I prefer trains this time");
        assertThat(end.getString("reply")).contains("Always keep my plans short");

        List<Map<String, Object>> versions = chat.get("/v1/sessions/" + sessionId + "/versions").getList("$");
        assertThat(versions).extracting(v -> v.get("type") + ":" + v.get("note")).containsExactly(
                "CREATE:null", ROUTE, "PATCH:step analyze-requirements", ROUTE, "PATCH:standing statements",
                "PATCH:step analyze-requirements",
                ROUTE, "PATCH:step analyze-requirements", "PATCH:step decompose-plan", "PATCH:step evaluate-plan",
                "PATCH:step decompose-plan", "PATCH:step evaluate-plan", ROUTE, "ROLLBACK:null", ROUTE,
                "PATCH:end-task", "END:null");
        JsonPath v1Only = chat.get("/v1/sessions/" + sessionId + "/versions/" + (beforeRollback + 2));
        assertThat(v1Only.getList("plans.score", Double.class)).containsExactly(4.0);
        assertThat(chat.get("/v1/profile").getList("facts.text")).containsExactly("Always keep my plans short");
    }

    @Test
    void aRevisionRequestRewritesTheNewestPlanWithTheUsersRemarks() {
        AgentChat chat = new AgentChat(Tokens.user("u-" + UUID.randomUUID()));
        chat.say("I want to learn Spanish");
        chat.say("I have 3 months and a budget of 100 euros");
        assertThat(chat.say("make the plan").getList("plans.version")).containsExactly(1, 2);

        JsonPath revised = chat.say("Can you improve the plan? Add a weekly conversation class");
        assertThat(revised.getString("intent")).isEqualTo("REVISE_PLAN");
        assertThat(revised.getList("plans.version")).containsExactly(1, 2, 3);
        assertThat(revised.getString("plans[2].content"))
                .startsWith(revised.getString("plans[1].content").lines().findFirst().orElseThrow())
                .contains("Adjust as you asked: Can you improve the plan? Add a weekly conversation class");
        assertThat(revised.getDouble("plans[2].score")).isEqualTo(10.0);
        assertThat(revised.getString("stepPointer.name")).isEqualTo("plan-evaluated");
    }

    @Test
    void aChineseTaskPromotesTheStandingLanguageAndTheNextTaskAnswersInIt() {
        String user = "u-" + UUID.randomUUID();
        AgentChat chat = new AgentChat(Tokens.user(user));
        JsonPath goal = chat.say("我想准备一次三天的杭州旅行");
        assertThat(goal.getString("goal")).isEqualTo("准备一次三天的杭州旅行");
        assertThat(goal.getString("question")).isEqualTo("这次你能投入多少预算或资源？");

        chat.say("这次预算两千元，以后都用中文回答");
        JsonPath state = chat.get("/v1/sessions/" + chat.sessionId());
        assertThat(state.getList("constraints.text")).containsExactly("这次预算两千元");
        assertThat(state.getList("constraints.scope")).containsExactly("TASK");
        assertThat(state.getList("observations.text")).containsExactly("以后都用中文回答");
        assertThat(state.getList("observations.scope")).containsExactly("STABLE");

        JsonPath planned = chat.say("开始规划吧");
        assertThat(planned.getList("plans.score", Double.class)).containsExactly(4.0, 10.0);
        assertThat(planned.getString("plans[1].content")).contains("遵守约束“这次预算两千元”");
        assertThat(planned.getString("reply")).startsWith("计划 v2（评分 10/10）");
        assertThat(chat.say("回到第一版").getList("plans.version")).containsExactly(1);

        JsonPath end = chat.say("好的，完成");
        assertThat(end.getString("intent")).isEqualTo("END_TASK");
        assertThat(end.getString("status")).isEqualTo("ENDED");
        assertThat(end.getString("reply")).startsWith("任务已结束，最终计划 v1");
        assertThat(end.getList("promotion.promoted.text")).containsExactly("以后都用中文回答");
        assertThat(end.getList("promotion.promoted.slot")).containsExactly("output.language");

        assertThat(chat.get("/v1/profile").getList("facts.text")).containsExactly("以后都用中文回答");
        model.reset();
        JsonPath next = new AgentChat(Tokens.user(user)).say("I want to learn to swim");
        assertThat(next.getString("reply")).startsWith("已记录：learn to swim");
        assertThat(next.getString("question")).isEqualTo("你有多少时间，或者需要在什么时候之前完成？");
        assertThat(model.requests()).allSatisfy(r -> assertThat(Prompts.fenced(r, "SESSION MEMORY")).contains("以后都用中文回答"));
    }
}
