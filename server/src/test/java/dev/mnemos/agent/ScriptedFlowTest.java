package dev.mnemos.agent;

import dev.langchain4j.model.chat.request.ChatRequest;
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
 * The flow with a scripted model standing in for a real one, answering the way a real model does
 * (JSON in a code fence): the prompts carry the memory block, the routing prompt the recent history.
 */
@QuarkusTest
class ScriptedFlowTest {

    @Inject
    ScriptedChatModel model;

    @BeforeEach
    void realModelStandIn() {
        model.reset();
        model.script(ScriptedFlowTest::answer);
    }

    @Test
    void promptsCarryTheMemoryBlockAndRoutingCarriesTheRecentHistory() {
        AgentChat chat = new AgentChat(Tokens.user("u-" + UUID.randomUUID()));
        chat.say("I'd like to learn Spanish");
        chat.say("I have 3 months, and this time only 20 euros");
        JsonPath planned = chat.say("Sounds good, draft it");
        assertThat(planned.getList("plans.score", Double.class)).containsExactly(5.0, 9.0);
        assertThat(planned.getList("plans.feedback")).containsExactly("No weekly review", "Solid");

        List<ChatRequest> sent = model.requests();
        assertThat(sent).extracting(Prompts::name).containsExactly(
                "route-intent", "analyze-requirements", "route-intent", "analyze-requirements",
                "route-intent", "analyze-requirements", "decompose-plan", "evaluate-plan", "decompose-plan", "evaluate-plan");
        assertThat(sent).allSatisfy(r -> assertThat(Prompts.fenced(r, "SESSION MEMORY")).contains(chat.sessionId()));
        assertThat(sent.subList(2, sent.size())).allSatisfy(r -> assertThat(Prompts.fenced(r, "SESSION MEMORY"))
                .contains("learn Spanish"));
        assertThat(Prompts.fenced(sent.get(7), "SESSION MEMORY")).contains("3 months", "only 20 euros", "plan v1");
        assertThat(Prompts.fenced(sent.get(4), "RECENT CONVERSATION")).contains(
                "user: I'd like to learn Spanish", "user: I have 3 months, and this time only 20 euros", "assistant: ");
        assertThat(Prompts.fenced(sent.get(0), "RECENT CONVERSATION")).isBlank();
        assertThat(Prompts.brief(sent.get(8), "Feedback")).isEqualTo("No weekly review");

        JsonPath back = chat.say("Hmm, I liked the first one more, use plan 1");
        assertThat(back.getString("intent")).isEqualTo("ROLLBACK_PLAN");
        assertThat(back.getList("plans.version")).containsExactly(1);
        assertThat(back.getString("plans[0].content")).contains("Duolingo");
    }

    static String answer(ChatRequest request) {
        String user = Prompts.user(request);
        return "```json\n" + switch (Prompts.name(request)) {
            case "route-intent" -> user.contains("draft it") ? "{\"intent\":\"READY_TO_DECOMPOSE\"}"
                    : user.contains("plan 1") ? "{\"intent\":\"ROLLBACK_PLAN\",\"planVersion\":1}"
                            : "{\"intent\":\"INSUFFICIENT_INFO\",\"planVersion\":null,\"reason\":\"more to know\"}";
            case "analyze-requirements" -> user.contains("learn Spanish") && !user.contains("## Goal\nlearn")
                    ? "{\"goal\":\"learn Spanish\",\"findings\":[],\"question\":\"How long do you have?\"}"
                    : user.contains("3 months") && user.contains("## Message\nI have")
                            ? "{\"goal\":null,\"findings\":[{\"text\":\"3 months\",\"kind\":\"CONSTRAINT\",\"scope\":\"TASK\"},"
                                    + "{\"text\":\"only 20 euros\",\"kind\":\"CONSTRAINT\",\"scope\":\"TASK\"}],\"question\":null}"
                            : "{\"findings\":[]}";
            case "decompose-plan" -> user.contains("Write plan version 1")
                    ? "{\"title\":\"Spanish\",\"steps\":[\"Duolingo daily\",\"Podcast weekly\",\"Talk to a tutor\"]}"
                    : "{\"title\":\"Spanish v2\",\"steps\":[\"Duolingo daily\",\"Review every Sunday\",\"Tutor monthly\"]}";
            case "evaluate-plan" -> user.contains("Evaluate plan version 1")
                    ? "{\"score\":5,\"feedback\":\"No weekly review\"}"
                    : "{\"score\":9,\"feedback\":\"Solid\"}";
            default -> "{}";
        } + "\n```";
    }
}
