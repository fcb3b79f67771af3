package dev.mnemos.agent;

import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each intent, from English and Chinese phrasings, routed by a scripted model: the agent does what
 * the intent asks and answers in the language of the message. The scripted router answers from a
 * table, as a real model would classify these phrasings.
 */
@QuarkusTest
class IntentRoutingTest {

    @Inject
    ScriptedChatModel model;

    @BeforeEach
    void reset() {
        model.reset();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "I'm thinking about running a marathon | INSUFFICIENT_INFO | EN",
            "Maybe I should get fit somehow | INSUFFICIENT_INFO | EN",
            "我想跑一次马拉松 | INSUFFICIENT_INFO | ZH",
            "我得减肥了 | INSUFFICIENT_INFO | ZH" })
    void insufficientInfoRecordsAndAsksOneQuestion(String message, Intent intent, Language lang) {
        script(intent);
        JsonPath answer = new AgentChat(token()).say(message);
        assertRoutingSaw(message);
        assertThat(answer.getString("intent")).isEqualTo(intent.name());
        assertThat(answer.getString("question")).isEqualTo(lang == Language.ZH ? "多久？" : "How long?");
        assertThat(answer.getString("reply")).endsWith(answer.getString("question"));
        assertThat(answer.getString("goal")).isEqualTo(message);
        assertThat(answer.getLong("version")).as("routing step + analysis step").isEqualTo(3);
        assertThat(answer.getList("plans")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Everything is going wrong today | VENTING | EN",
            "I just need to let off some steam | VENTING | EN",
            "我今天心情很差 | VENTING | ZH",
            "唉，什么都不顺 | VENTING | ZH",
            "What's the weather like? | UNRECOGNIZED | EN",
            "purple monkey dishwasher | UNRECOGNIZED | EN",
            "今天星期几？ | UNRECOGNIZED | ZH",
            "嗯嗯嗯 | UNRECOGNIZED | ZH" })
    void ventingAndUnrecognizedRecordNothingAndPlanNothing(String message, Intent intent, Language lang) {
        script(intent);
        JsonPath answer = new AgentChat(token()).say(message);
        assertRoutingSaw(message);
        Phrase expected = intent == Intent.VENTING ? Phrase.VENTING : Phrase.UNRECOGNIZED;
        assertThat(answer.getString("intent")).isEqualTo(intent.name());
        assertThat(answer.getString("reply")).isEqualTo(expected.in(lang));
        assertThat(answer.getLong("version")).as("only the routing step").isEqualTo(2);
        assertThat(answer.getString("goal")).isNull();
        assertThat(answer.getList("plans")).isEmpty();
        assertThat(answer.getString("stepPointer.name")).isEqualTo("collect-goal");
        assertThat(model.requests()).extracting(Prompts::name).containsExactly("route-intent");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Let's get going, I'd like the plan | READY_TO_DECOMPOSE | EN",
            "Alright, what should I do first? | READY_TO_DECOMPOSE | EN",
            "好了，给我安排一下吧 | READY_TO_DECOMPOSE | ZH",
            "那就这么定了，出方案吧 | READY_TO_DECOMPOSE | ZH" })
    void readyToDecomposeWritesAnEvaluatedPlan(String message, Intent intent, Language lang) {
        AgentChat chat = new AgentChat(token());
        script(Intent.INSUFFICIENT_INFO);
        chat.say("run a marathon");
        script(intent);
        JsonPath answer = chat.say(message);
        assertRoutingSaw(message);
        assertThat(answer.getString("intent")).isEqualTo(intent.name());
        assertThat(answer.getList("plans.score", Double.class)).containsExactly(9.0);
        assertThat(answer.getString("reply")).startsWith(lang == Language.ZH ? "计划 v1（评分 9/10）" : "Plan v1 (score 9/10)");
        assertThat(answer.getString("stepPointer.name")).isEqualTo("plan-evaluated");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Can you make it better? | REVISE_PLAN | EN",
            "再改进一下这个计划 | REVISE_PLAN | ZH",
            "Let's go back to the first version | ROLLBACK_PLAN | EN",
            "回到第1版 | ROLLBACK_PLAN | ZH",
            "That's all, thanks | END_TASK | EN",
            "好了，就这样吧，结束 | END_TASK | ZH" })
    void planCommandsActOnTheExistingPlan(String message, Intent intent, Language lang) {
        AgentChat chat = new AgentChat(token());
        script(Intent.INSUFFICIENT_INFO);
        chat.say("run a marathon");
        script(Intent.READY_TO_DECOMPOSE);
        chat.say("make the plan");
        script(Intent.REVISE_PLAN);
        chat.say("improve it");
        script(intent);
        JsonPath answer = chat.say(message);
        assertRoutingSaw(message);
        assertThat(answer.getString("intent")).isEqualTo(intent.name());
        switch (intent) {
            case REVISE_PLAN -> assertThat(answer.getList("plans.version", Integer.class)).containsExactly(1, 2, 3);
            case ROLLBACK_PLAN -> assertThat(answer.getList("plans.version", Integer.class)).containsExactly(1);
            case END_TASK -> assertThat(answer.getString("status")).isEqualTo("ENDED");
            default -> throw new IllegalArgumentException(intent.name());
        }
    }

    private void script(Intent intent) {
        model.script(request -> switch (Prompts.name(request)) {
            case "route-intent" -> routed(request, intent);
            case "analyze-requirements" -> analysis(request);
            case "decompose-plan" -> "{\"title\":\"Run\",\"steps\":[\"Buy shoes\",\"Run 3 times a week\",\"Race\"]}";
            case "evaluate-plan" -> "{\"score\":9,\"feedback\":\"fine\"}";
            default -> "{}";
        });
    }

    /**
     * The scripted router answers the intent of the row; each test then checks that the routing
     * prompt carried the user's message ({@link #assertRoutingSaw}), since a router that never saw
     * the message could not have classified it.
     */
    private static String routed(ChatRequest request, Intent intent) {
        return "{\"intent\":\"" + intent + "\"}";
    }

    private static String analysis(ChatRequest request) {
        String message = Prompts.brief(request, "Message");
        String question = Language.of(message) == Language.ZH ? "多久？" : "How long?";
        return "{\"goal\":\"" + message + "\",\"findings\":[],\"question\":\"" + question + "\"}";
    }

    /** The newest routing request carried the user's message in its user text. */
    private void assertRoutingSaw(String message) {
        ChatRequest routing = model.requests().stream().filter(r -> Prompts.name(r).equals("route-intent"))
                .reduce((first, second) -> second).orElseThrow();
        assertThat(Prompts.user(routing)).contains(message);
    }

    private static String token() {
        return Tokens.user("u-" + UUID.randomUUID());
    }
}
