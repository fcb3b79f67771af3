package dev.mnemos.agent;

import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A planning turn (route, requirements, plan, evaluate, rewrite, evaluate) reads the whole session
 * once, before its first step; each step's result is rebuilt from what the step wrote.
 */
@QuarkusTest
class PlanningTurnReadsTest {

    @Inject
    ScriptedChatModel model;

    @BeforeEach
    void offlineModel() {
        model.reset();
    }

    @Test
    void planningTurnMakesNoFullReadAfterAStep() {
        AgentChat chat = new AgentChat(Tokens.user("u-" + UUID.randomUUID()));
        chat.say("I want to plan a 5-day trip to Japan");
        chat.say("Budget 5000 yuan this time. No flights.");
        SessionCallLog.watch(chat.sessionId());

        JsonPath planned = chat.say("OK, make the plan");

        assertThat(planned.getString("intent")).isEqualTo("READY_TO_DECOMPOSE");
        assertThat(planned.getList("plans.version")).containsExactly(1, 2);
        List<String> calls = SessionCallLog.of(chat.sessionId());
        assertThat(calls).as("store calls of the turn").filteredOn("write"::equals).hasSizeGreaterThanOrEqualTo(5);
        assertThat(calls.subList(calls.indexOf("write"), calls.size())).as("store calls from the first step on")
                .doesNotContain("get");
        assertThat(calls).filteredOn("get"::equals).hasSizeLessThanOrEqualTo(1);
        JsonPath stored = chat.get("/v1/sessions/" + chat.sessionId());
        assertThat(planned.getLong("version")).isEqualTo(stored.getLong("version"));
        assertThat(planned.getList("plans.content")).isEqualTo(stored.getList("plans.content"));
        assertThat(planned.getList("plans.score")).isEqualTo(stored.getList("plans.score"));
        assertThat(planned.getString("stepPointer.name")).isEqualTo(stored.getString("stepPointer.name"));
        SessionCallLog.stop(chat.sessionId());
    }
}
