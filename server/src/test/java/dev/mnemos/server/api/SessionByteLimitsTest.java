package dev.mnemos.server.api;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * The byte limits over HTTP (a session's state capped at 64 KiB, a user's sessions at 192 KiB here,
 * {@link SmallSessionLimits}):
 * steps of 10 KB, each well under the body limit, until a limit answers a problem naming it, with the
 * session's version unchanged.
 */
@QuarkusTest
@TestProfile(SmallSessionLimits.class)
class SessionByteLimitsTest {

    final String user = "bytes-" + UUID.randomUUID();
    final String value = "v".repeat(10_000);

    RequestSpecification as() {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    String create() {
        return as().body(Map.of("goal", "g")).post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
    }

    int version(String id) {
        return as().get("/v1/sessions/{id}", id).then().statusCode(200).extract().path("version");
    }

    /** Steps of 10 KB until one is refused; @return the refusal */
    ExtractableResponse<Response> fill(String id) {
        for (int i = 0; i < 30; i++) {
            ExtractableResponse<Response> answer = as().body(Map.of("patch", Map.of("putCollected", Map.of("k" + i, value))))
                    .post("/v1/sessions/{id}/steps", id).then().extract();
            if (answer.statusCode() != 200) {
                return answer;
            }
        }
        throw new AssertionError("30 steps of 10 KB were all accepted");
    }

    @Test
    void aStepOverTheSessionCapAnswers413NamingItAndWritesNothing() {
        String id = create();
        ExtractableResponse<Response> refused = fill(id);
        int version = version(id);
        assertThat(refused.statusCode()).isEqualTo(413);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.<String> path("limit")).isEqualTo("quarkus.mnemos.session.max-session-bytes");
        assertThat(refused.<Integer> path("maxSessionBytes")).isEqualTo(65536);
        assertThat(version).as("steps accepted before the cap, plus the creation").isBetween(6, 8);
        as().body(Map.of("patch", Map.of("putCollected", Map.of("again", value)))).post("/v1/sessions/{id}/steps", id)
                .then().statusCode(413);
        assertThat(version(id)).as("nothing written").isEqualTo(version);
        as().delete("/v1/sessions/{id}", id).then().statusCode(204);
    }

    @Test
    void aUserOverTheByteBudgetAnswers429NamingItAndWritesNothing() {
        String first = create();
        assertThat(fill(first).statusCode()).isEqualTo(413);
        String second = create();
        ExtractableResponse<Response> refused = fill(second);
        int version = version(second);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.<String> path("limit")).isEqualTo("quarkus.mnemos.session.max-user-bytes");
        assertThat(refused.<Integer> path("maxUserBytes")).isEqualTo(196608);
        as().body(Map.of("patch", Map.of("putCollected", Map.of("again", value)))).post("/v1/sessions/{id}/steps", second)
                .then().statusCode(429).body("limit", equalTo("quarkus.mnemos.session.max-user-bytes"));
        assertThat(version(second)).as("nothing written").isEqualTo(version);
        as().delete("/v1/sessions/{id}", first).then().statusCode(204);
        as().body(Map.of("patch", Map.of("putCollected", Map.of("again", value)))).post("/v1/sessions/{id}/steps", second)
                .then().statusCode(200);
        as().delete("/v1/sessions/{id}", second).then().statusCode(204);
    }
}
