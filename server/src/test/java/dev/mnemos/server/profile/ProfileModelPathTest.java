package dev.mnemos.server.profile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemos.server.support.ModelConfigured;
import dev.mnemos.server.support.Prompts;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

@QuarkusTest
@TestProfile(ModelConfigured.class)
class ProfileModelPathTest {

    @Inject
    ScriptedChatModel model;

    @Inject
    AgroalDataSource db;

    @Inject
    MeterRegistry meters;

    private double fallbacks(String reason) {
        var counter = meters.find("mnemos.model.fallbacks").tag("ai", "reconcile").tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }

    private long modelCalls(String outcome) {
        var timer = meters.find("mnemos.model.calls").tag("ai", "reconcile").tag("outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }

    private String user;
    private String token;

    @BeforeEach
    void setUp() {
        model.reset();
        user = "alice-" + UUID.randomUUID();
        token = Tokens.user(user);
    }

    private ValidatableResponse instruct(String instruction) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("instruction", instruction))
                .post("/v1/profile/instruct").then();
    }

    private List<String> facts() {
        return given().auth().oauth2(token).get("/v1/profile").then().statusCode(200)
                .extract().jsonPath().getList("facts.text", String.class);
    }

    private static String newInformation(JsonNode body) {
        return body.get("new_information").asText();
    }

    @Test
    void sixteenConcurrentSlowInstructsAllLandWithoutDuplicates() throws Exception {
        model.script(req -> {
            sleep(300);
            // the model's wording differs from the input, so a fallback to the deterministic path would show
            return "{\"operations\": [{\"op\": \"ADD\", \"text\": \""
                    + newInformation(Prompts.body(req)).replace("remember collects", "Collector of") + "\"}]}";
        });
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<String>> calls = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                String fact = "collects coin series " + i;
                calls.add(pool.submit(() -> given().auth().oauth2(token).contentType(ContentType.JSON)
                        .body(Map.of("instruction", "remember " + fact)).post("/v1/profile/instruct")
                        .then().statusCode(200).extract().path("path")));
            }
            for (Future<String> call : calls) {
                assertThat(call.get(60, TimeUnit.SECONDS)).isEqualTo("MODEL");
            }
            assertThat(model.requests()).hasSize(16);
        } finally {
            pool.shutdownNow();
        }
        List<String> facts = facts();
        assertThat(facts).hasSize(16).doesNotHaveDuplicates();
        for (int i = 0; i < 16; i++) {
            assertThat(facts).contains("Collector of coin series " + i);
        }
    }

    @Test
    void aSlowModelCallDoesNotUndoADeleteMadeWhileItWasThinking() throws Exception {
        model.script(req -> "{\"operations\": [{\"op\": \"ADD\", \"text\": \"Keeps bees\"}]}");
        instruct("remember I keep bees").statusCode(200);
        long bees = given().auth().oauth2(token).get("/v1/profile").then().extract().jsonPath().getLong("facts[0].id");
        CountDownLatch thinking = new CountDownLatch(1);
        model.script(req -> {
            thinking.countDown();
            sleep(1500);
            return "{\"operations\": [{\"op\": \"ADD\", \"text\": \"Plays the cello\"}]}";
        });
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> slow = pool.submit(() -> given().auth().oauth2(token).contentType(ContentType.JSON)
                    .body(Map.of("instruction", "remember I play the cello")).post("/v1/profile/instruct")
                    .then().statusCode(200).extract().path("path"));
            assertThat(thinking.await(30, TimeUnit.SECONDS)).isTrue();
            given().auth().oauth2(token).delete("/v1/profile/facts/{id}", bees).then().statusCode(200);
            assertThat(slow.get(60, TimeUnit.SECONDS)).isEqualTo("MODEL");
        } finally {
            pool.shutdownNow();
        }
        assertThat(facts()).containsExactly("Plays the cello");
    }

    @Test
    void modelSeesSmallIdsAndItsUpdateIsMappedBackToTheRealFact() {
        model.script(req -> "{\"operations\": [{\"op\": \"ADD\", \"text\": \"Lives in Beijing\"}]}");
        instruct("remember I live in Beijing").statusCode(200).body("path", equalTo("MODEL"));
        model.script(
                req -> "```json\n{\"operations\": [{\"op\": \"UPDATE\", \"id\": 0, \"text\": \"Lives in Shanghai\"}]}\n```");
        instruct("I moved to Shanghai").statusCode(200)
                .body("changes[0].action", equalTo("UPDATE"))
                .body("changes[0].before", equalTo("Lives in Beijing"))
                .body("facts.text", equalTo(List.of("Lives in Shanghai")));
        JsonNode sent = Prompts.body(model.requests().get(1));
        assertThat(sent.get("memories").get(0).get("id").asInt()).isZero();
        assertThat(sent.get("memories").get(0).get("text").asText()).isEqualTo("Lives in Beijing");
        assertThat(sent.get("today").asText()).isEqualTo(LocalDate.now().toString());
        assertThat(Prompts.name(model.requests().get(1))).isEqualTo("reconcile");
        String system = model.requests().get(1).messages().get(0).toString();
        assertThat(system).contains("{\"operations\": [{\"op\": \"ADD\"").doesNotContain("{|");
    }

    @Test
    void emptyProfileIsStatedExplicitly() {
        model.script(req -> "{\"operations\": [{\"op\": \"ADD\", \"text\": \"Likes jazz\"}]}");
        instruct("remember I like jazz").statusCode(200);
        JsonNode sent = Prompts.body(model.requests().get(0));
        assertThat(sent.get("memories")).isEmpty();
        assertThat(sent.get("note").asText()).isEqualTo("no memories yet");
    }

    @Test
    void answerWithoutJsonFallsBackAndKeepsTheInput() {
        model.script(req -> "I would simply remember that the user likes jazz.");
        double unusable = fallbacks("unusable");
        long ok = modelCalls("ok");
        instruct("remember I like jazz").statusCode(200).body("path", equalTo("DETERMINISTIC"));
        assertThat(facts()).containsExactly("I like jazz");
        assertThat(fallbacks("unusable")).isEqualTo(unusable + 1);
        assertThat(modelCalls("ok")).isEqualTo(ok + 1);
    }

    @Test
    void failingModelFallsBackAndKeepsTheInput() {
        model.script(req -> {
            throw new IllegalStateException("connection reset");
        });
        double failed = fallbacks("failed");
        long failedCalls = modelCalls("failed");
        instruct("记住我对花生过敏").statusCode(200).body("path", equalTo("DETERMINISTIC"));
        assertThat(facts()).containsExactly("我对花生过敏");
        assertThat(fallbacks("failed")).isEqualTo(failed + 1);
        assertThat(modelCalls("failed")).isEqualTo(failedCalls + 1);
    }

    @Test
    void inventedIdsNeverTouchOtherFactsAndTheTextIsKept() {
        model.script(req -> "{\"operations\": [{\"op\": \"ADD\", \"text\": \"Likes tea\"}]}");
        instruct("remember I like tea").statusCode(200);
        model.script(req -> "{\"operations\": [{\"op\": \"UPDATE\", \"id\": 4815162342, \"text\": \"Likes oolong tea\"},"
                + " {\"op\": \"DELETE\", \"id\": 99}]}");
        instruct("I like oolong tea in particular").statusCode(200).body("path", equalTo("MODEL"));
        assertThat(facts()).containsExactly("Likes tea", "Likes oolong tea");
    }

    @Test
    void wrongElementTypesAreCoercedAndMeaninglessTextIsDropped() {
        model.script(req -> "Here you go: {operations: [\"Prefers dark mode\", 42, {'op': 'add', 'text': 7}],}");
        instruct("remember I prefer dark mode").statusCode(200).body("path", equalTo("MODEL"));
        assertThat(facts()).containsExactly("Prefers dark mode");
    }

    @Test
    void noneWithoutAnyCandidateStillKeepsTheInput() {
        model.script(req -> "{\"operations\": [{\"op\": \"NONE\"}]}");
        instruct("remember I speak Dutch").statusCode(200);
        assertThat(facts()).containsExactly("I speak Dutch");
    }

    @Test
    void modelDeleteOnForgetRemovesTheText() {
        model.script(req -> "{\"operations\": [{\"op\": \"ADD\", \"text\": \"住在上海\"}]}");
        instruct("记住我住在上海").statusCode(200);
        model.script(req -> "{\"operations\": [{\"op\": \"DELETE\", \"id\": 0}]}");
        instruct("forget where I live").statusCode(200).body("changes[0].action", equalTo("FORGET"));
        assertThat(facts()).isEmpty();
        given().auth().oauth2(token).get("/v1/profile/history").then()
                .body("events.findAll { it.after == '住在上海' || it.before == '住在上海' }", hasSize(0));
    }

    @Test
    void chineseFactsStayInTheirLanguage() {
        model.script(
                req -> "{\"operations\": [{\"op\": \"ADD\", \"text\": \"以后用中文回答\", \"slot\": \"output.language\", \"category\": \"LANGUAGE\"}]}");
        instruct("以后用中文回答").statusCode(200)
                .body("facts[0].text", equalTo("以后用中文回答"))
                .body("facts[0].category", equalTo("LANGUAGE"));
    }

    @Test
    void importUsesTheExtractionPromptAndDropsTaskScopedFacts() {
        model.script(req -> "{\"facts\": [{\"text\": \"偏好简洁的回答\", \"scope\": \"STABLE\"},"
                + " {\"text\": \"Budget is 500 EUR this time\", \"scope\": \"TASK\"}]}");
        given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Map.of("text", "User prefers short answers. Budget 500 EUR."))
                .post("/v1/profile/import").then().statusCode(200).body("path", equalTo("MODEL"));
        assertThat(facts()).containsExactly("偏好简洁的回答");
        assertThat(Prompts.name(model.requests().get(0))).isEqualTo("fact-extraction");
    }

    @Test
    void nearestFactsByEmbeddingAreTheCandidatesAndCarryStoredEmbeddings() throws Exception {
        List<String> unrelated = List.of("Drives a blue bicycle", "Works as an accountant", "Plays chess on Sundays",
                "Has a cat named Miso", "Prefers aisle seats", "Collects vinyl records", "Studies Japanese",
                "Grows tomatoes on the balcony", "Runs half marathons", "Owns a sailing boat");
        for (String text : unrelated) {
            given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("text", text))
                    .post("/v1/profile/facts").then().statusCode(201);
        }
        given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("text", "Allergic to peanuts"))
                .post("/v1/profile/facts").then().statusCode(201);
        model.script(req -> "{\"operations\": [{\"op\": \"DELETE\", \"id\": 0}]}");
        instruct("I am no longer allergic to peanuts").statusCode(200).body("changes[0].action", equalTo("DELETE"))
                .body("changes[0].before", equalTo("Allergic to peanuts"));
        JsonNode memories = Prompts.body(model.requests().get(0)).get("memories");
        assertThat(memories.size()).isBetween(1, 8);
        assertThat(memories.get(0).get("text").asText()).isEqualTo("Allergic to peanuts");
        assertThat(facts()).hasSize(10).doesNotContain("Allergic to peanuts");
        try (var c = db.getConnection();
                var st = c.prepareStatement(
                        "select count(*) from profile_fact where user_id = ? and octet_length(embedding) = 384 * 4")) {
            st.setString(1, user);
            try (var rs = st.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(11);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
