package dev.mnemos.server.api;

import dev.mnemos.injection.ActingAs;
import dev.mnemos.injection.SessionMemoryUnavailableException;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.server.support.TestRedis;
import dev.mnemos.testsupport.Tokens;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

/**
 * Redis (with an append-only file fsynced on every write) is killed mid-run: the API answers 503
 * with Retry-After and the model is not called; once Redis is back, the session written before the
 * kill is there with every acknowledged step, exactly once. How fast the 503 comes is a benchmark
 * matter, not asserted here.
 */
@QuarkusTest
@TestProfile(RedisDownTest.OwnRedis.class)
class RedisDownTest {

    public static class OwnRedis implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(TestRedis.class));
        }
    }

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;

    @Test
    void redisDownAnswers503AndAcknowledgedStepsSurviveARestart() {
        String user = "u-" + UUID.randomUUID();
        String token = Tokens.user(user);
        String id = given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("goal", "g"))
                .post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
        for (int i = 1; i <= 3; i++) {
            given().auth().oauth2(token).contentType(ContentType.JSON)
                    .body(Map.of("patch", Map.of("putCollected", Map.of("k" + i, "v" + i)), "note", "ack-" + i))
                    .post("/v1/sessions/{id}/steps", id).then().statusCode(200).body("version", equalTo(i + 1));
        }

        TestRedis.killServer();
        given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("patch", Map.of("goal", "while down")))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(503)
                .contentType("application/problem+json").header("Retry-After", notNullValue());
        given().auth().oauth2(token).get("/v1/sessions/{id}", id).then().statusCode(503)
                .header("Retry-After", notNullValue());
        model.reset();
        assertThatThrownBy(() -> ActingAs.user(user).call(() -> ai.chat(id, "anything while Redis is down")))
                .isInstanceOf(SessionMemoryUnavailableException.class);
        assertThat(model.requests()).as("no model call without memory").isEmpty();

        TestRedis.startServer();
        given().auth().oauth2(token).get("/v1/sessions/{id}", id).then().statusCode(200)
                .body("version", equalTo(4)).body("goal", equalTo("g"))
                .body("collected", equalTo(Map.of("k1", "v1", "k2", "v2", "k3", "v3")));
        List<String> notes = given().auth().oauth2(token).get("/v1/sessions/{id}/versions", id).then().statusCode(200)
                .extract().jsonPath().getList("note", String.class);
        assertThat(notes).as("each acknowledged step once, nothing else").containsExactly(null, "ack-1", "ack-2", "ack-3");
        String again = given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("goal", "after"))
                .post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
        given().auth().oauth2(token).get("/v1/sessions/{id}", again).then().statusCode(200).body("goal", equalTo("after"));
    }
}
