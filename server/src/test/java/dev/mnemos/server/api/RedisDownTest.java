package dev.mnemos.server.api;

import dev.mnemos.injection.SessionMemoryUnavailableException;
import dev.mnemos.injection.TripAi;
import dev.mnemos.llm.ScriptedChatModel;
import dev.mnemos.session.TestRedis;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

/** Redis stops mid-run: the API answers 503 with Retry-After in bounded time, then recovers. */
@QuarkusTest
@TestProfile(RedisDownTest.OwnRedis.class)
class RedisDownTest {

    public static class OwnRedis implements QuarkusTestProfile {
        @Override
        public java.util.List<TestResourceEntry> testResources() {
            return java.util.List.of(new TestResourceEntry(TestRedis.class));
        }
    }

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;

    @Test
    void redisDownAnswers503QuicklyAndServiceRecovers() {
        String user = "u-" + UUID.randomUUID();
        String token = Tokens.user(user);
        String id = given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("goal", "g"))
                .post("/v1/sessions").then().statusCode(201).extract().path("sessionId");

        TestRedis.stopServer();
        long start = System.nanoTime();
        given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("patch", Map.of("goal", "while down")))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(503)
                .contentType("application/problem+json").header("Retry-After", notNullValue());
        given().auth().oauth2(token).get("/v1/sessions/{id}", id).then().statusCode(503);
        model.reset();
        assertThatThrownBy(() -> ai.chat(id, "anything while Redis is down"))
                .isInstanceOf(SessionMemoryUnavailableException.class);
        assertThat(model.requests()).as("no model call without memory").isEmpty();
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(elapsedMs).as("two calls answered within the configured timeouts").isLessThan(10_000);

        TestRedis.startServer();
        String again = given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("goal", "after"))
                .post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
        given().auth().oauth2(token).get("/v1/sessions/{id}", again).then().statusCode(200).body("goal", equalTo("after"));
    }
}
