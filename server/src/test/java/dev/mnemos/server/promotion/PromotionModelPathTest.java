package dev.mnemos.server.promotion;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.mnemos.server.support.ModelConfigured;
import dev.mnemos.server.support.Prompts;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.session.SessionKeys;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;

@QuarkusTest
@TestProfile(ModelConfigured.class)
class PromotionModelPathTest {

    @Inject
    ScriptedChatModel model;

    @Inject
    ChatMemoryStore chats;

    @Inject
    RedisDataSource redis;

    private String alice;

    @BeforeEach
    void setUp() {
        model.reset();
        alice = "alice-" + UUID.randomUUID();
    }

    @Test
    void extractionSeesOnlyTheUsersMessagesAndItsTaskFactsAreRejected() {
        String s = start(alice);
        chats.updateMessages(s, List.of(UserMessage.from("以后都用中文回答。这次预算五千元。"),
                AiMessage.from("ASSISTANT-ONLY: the user seems to be a pilot"), UserMessage.from("I work night shifts")));
        model.script(req -> "```json\n{\"facts\": [{\"text\": \"偏好用中文回答\", \"category\": \"LANGUAGE\", \"scope\": \"STABLE\"},"
                + " {\"text\": \"本次预算五千元\", \"scope\": \"TASK\"}, {\"text\": \"Works night shifts\", \"scope\": \"UNKNOWN\"}]}\n```");
        JsonPath report = end(alice, s);
        assertThat(report.getList("promoted.text", String.class)).containsExactly("偏好用中文回答");
        assertThat(report.getList("rejected.text", String.class)).containsExactly("本次预算五千元");
        assertThat(report.getList("pending.text", String.class)).containsExactly("Works night shifts");
        assertThat(model.requests()).hasSize(1);
        assertThat(Prompts.name(model.requests().get(0))).isEqualTo("fact-extraction");
        JsonNode sent = Prompts.body(model.requests().get(0));
        assertThat(sent.get("user_messages")).extracting(JsonNode::asText)
                .containsExactly("以后都用中文回答。这次预算五千元。", "I work night shifts");
        assertThat(sent.toString()).doesNotContain("ASSISTANT-ONLY");
        assertThat(sent.get("today").asText()).isEqualTo(LocalDate.now().toString());
        assertThat(redis.key().exists(SessionKeys.chat(s))).isFalse();
        as(alice).get("/v1/profile").then().statusCode(200)
                .body("facts[0].slot", Matchers.equalTo("output.language"));
    }

    @Test
    void extractionInputIsCutToTheModelInputCap() {
        String s = start(alice);
        String longMessage = "I keep a detailed travel diary. ".repeat(1_000);
        chats.updateMessages(s, List.of(UserMessage.from(longMessage), UserMessage.from(longMessage),
                UserMessage.from("From now on, keep answers short")));
        model.script(req -> "{\"facts\": []}");
        end(alice, s);
        assertThat(model.requests()).hasSize(1);
        String userText = Prompts.body(model.requests().get(0)).toString();
        assertThat(longMessage.length() * 2).as("the input really was over the cap").isGreaterThan(50_000);
        assertThat(userText.length()).as("the user part of the model call").isLessThanOrEqualTo(50_000);
        assertThat(userText).contains("travel diary", "keep answers short");
    }

    @Test
    void failingExtractionStillDecidesTheObservations() {
        String s = start(alice);
        chats.updateMessages(s, List.of(UserMessage.from("From now on, be brief")));
        observe(alice, s, "From now on, be brief", null, true);
        model.script(req -> {
            throw new IllegalStateException("model down");
        });
        JsonPath report = end(alice, s);
        assertThat(report.getList("promoted.text", String.class)).containsExactly("From now on, be brief");
        assertThat(model.requests()).hasSize(1);
    }

    @Test
    void garbageExtractionIsIgnored() {
        String s = start(alice);
        chats.updateMessages(s, List.of(UserMessage.from("Always cite sources")));
        model.script(req -> "Sure, the user likes sources.");
        JsonPath report = end(alice, s);
        assertThat(report.getList("promoted")).isEmpty();
        assertThat(report.getList("pending")).isEmpty();
    }

    @Test
    void theExtractionPromptDecidesTheSameClassesAndTheDeterministicReadingStillGuards() {
        String s = start(alice);
        chats.updateMessages(s, List.of(UserMessage.from("For this report use bullet points, and always cite sources."),
                UserMessage.from("Remember that my flight was moved to 9 am. I never eat pork."),
                UserMessage.from("Book the 10 am train today")));
        model.script(
                req -> "{\"facts\": [{\"text\": \"Always cite sources\", \"category\": \"INSTRUCTION\", \"scope\": \"STABLE\"},"
                        + " {\"text\": \"Use bullet points for this report\", \"scope\": \"TASK\"},"
                        + " {\"text\": \"Flight moved to 9 am\", \"scope\": \"TASK\"},"
                        + " {\"text\": \"Never eats pork\", \"category\": \"PREFERENCE\", \"scope\": \"STABLE\"},"
                        + " {\"text\": \"Book the 10 am train today\", \"scope\": \"STABLE\"}]}");
        JsonPath report = end(alice, s);
        assertThat(Prompts.name(model.requests().get(0))).isEqualTo("fact-extraction");
        String prompt = model.requests().get(0).messages().get(0).toString();
        assertThat(prompt).contains("Split a message into clauses", "dated event", "one-off circumstance");
        assertThat(report.getList("promoted.text", String.class)).containsExactly("Always cite sources", "Never eats pork");
        assertThat(report.getList("rejected.text", String.class)).as("the model's STABLE does not beat 'today'")
                .containsExactly("Use bullet points for this report", "Flight moved to 9 am", "Book the 10 am train today");
    }

    @Test
    void withAModelTheReconcilePromptDecidesAContradictionWithoutASlot() {
        model.script(req -> Prompts.name(req).equals("reconcile")
                ? "{\"operations\": [{\"op\": \"UPDATE\", \"id\": 0, \"text\": \"Eats fish again\"}]}"
                : "{\"facts\": []}");
        String first = start(alice);
        observe(alice, first, "I'm vegetarian", null, true);
        assertThat(end(alice, first).getList("promoted.text", String.class)).containsExactly("I'm vegetarian");
        String s = start(alice);
        observe(alice, s, "From now on I eat fish again", null, true);
        JsonPath report = end(alice, s);
        assertThat(report.getList("promoted.text", String.class)).containsExactly("From now on I eat fish again");
        assertThat(report.getString("profileChanges[0].before")).isEqualTo("I'm vegetarian");
        var reconcile = model.requests().stream().filter(r -> Prompts.name(r).equals("reconcile")).reduce((a, b) -> b)
                .orElseThrow();
        assertThat(Prompts.body(reconcile).toString()).contains("I'm vegetarian", "From now on I eat fish again");
        as(alice).get("/v1/profile").then().body("facts.text",
                Matchers.equalTo(List.of("From now on I eat fish again")));
    }

    @Test
    void withAModelAContradictionOfAFactTheUserTypedWaitsForTheUser() {
        as(alice).body(Map.of("text", "Vegetarian")).post("/v1/profile/facts").then().statusCode(201);
        model.script(req -> Prompts.name(req).equals("reconcile")
                ? "{\"operations\": [{\"op\": \"UPDATE\", \"id\": 0, \"text\": \"Eats fish again\"}]}"
                : "{\"facts\": []}");
        String s = start(alice);
        observe(alice, s, "From now on I eat fish again", null, true);
        JsonPath report = end(alice, s);
        assertThat(report.getList("promoted")).isEmpty();
        assertThat(report.getList("pending.text", String.class)).containsExactly("From now on I eat fish again");
        assertThat(report.getString("pending[0].reason")).contains("which you stated");
        as(alice).get("/v1/profile").then().body("facts.text", Matchers.equalTo(List.of("Vegetarian")));
    }
}
