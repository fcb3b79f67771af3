package dev.mnemos.server.api;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * Small mismatches at the REST edge (issue 33, item 9): a token subject that is no user id, an empty
 * {@code Idempotency-Key}, a POST without {@code Content-Type}, a write to an ended session. Each answers
 * one 4xx problem naming what is wrong, the same on the profile and the session paths, and writes nothing.
 */
@QuarkusTest
class RestEdgesTest {

    @TestHTTPResource("/")
    URI root;

    final String alice = "alice-" + UUID.randomUUID();

    static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    static ValidatableResponse problem(ValidatableResponse response, int status, String field) {
        return response.statusCode(status).contentType("application/problem+json").body("status", equalTo(status))
                .body("field", equalTo(field));
    }

    String session(String user) {
        return as(user).body(Map.of("goal", "edges")).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
    }

    @Test
    void aSubjectThatIsNoUserIdIs400NamingSubOnProfileAndSessionPaths() {
        String suffix = UUID.randomUUID().toString();
        for (String sub : List.of("x".repeat(129) + suffix, "a b " + suffix, "a\nb" + suffix, "{a}" + suffix,
                "-a" + suffix)) {
            problem(as(sub).body(Map.of("text", "Likes tea")).post("/v1/profile/facts").then(), 400, "sub")
                    .body("detail", containsString("sub"));
            problem(as(sub).get("/v1/profile").then(), 400, "sub");
            problem(as(sub).body(Map.of("goal", "g")).post("/v1/sessions").then(), 400, "sub");
            problem(as(sub).get("/v1/sessions").then(), 400, "sub");
            problem(as(sub).body(Map.of("message", "plan a trip")).post("/v1/agent/chat").then(), 400, "sub");
        }
        // a subject at the limit is a user like any other
        String longest = "u" + UUID.randomUUID().toString().replace("-", "") + "x".repeat(95);
        assertThat(longest).hasSize(128);
        as(longest).body(Map.of("text", "Likes tea")).post("/v1/profile/facts").then().statusCode(201);
        session(longest);
    }

    @Test
    void anEmptyIdempotencyKeyIs400NamingTheHeaderAndWritesNothing() {
        String id = session(alice);
        problem(as(alice).header("Idempotency-Key", "").body(Map.of("goal", "g")).post("/v1/sessions").then(), 400,
                "Idempotency-Key");
        problem(as(alice).header("Idempotency-Key", "").body(Map.of("patch", Map.of("goal", "x")))
                .post("/v1/sessions/{id}/steps", id).then(), 400, "Idempotency-Key");
        problem(as(alice).header("Idempotency-Key", "").body(Map.of("text", "t"))
                .post("/v1/sessions/{id}/observations", id).then(), 400, "Idempotency-Key");
        problem(as(alice).header("Idempotency-Key", "").body(Map.of("text", "Likes tea")).post("/v1/profile/facts")
                .then(), 400, "Idempotency-Key");
        as(alice).get("/v1/sessions").then().statusCode(200).body("$", hasSize(1));
        as(alice).get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(1));
        as(alice).get("/v1/profile").then().statusCode(200).body("facts", hasSize(0));
    }

    @Test
    void aPostWithoutContentTypeIs415AndWritesNothing() throws Exception {
        String id = session(alice);
        HttpClient http = HttpClient.newHttpClient();
        Map<String, String> writes = Map.of("/v1/sessions", "{\"goal\":\"g\"}",
                "/v1/sessions/" + id + "/steps", "{\"patch\":{\"goal\":\"x\"}}",
                "/v1/profile/facts", "{\"text\":\"Likes tea\"}");
        for (Map.Entry<String, String> write : writes.entrySet()) {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(root.resolve(write.getKey()))
                    .header("Authorization", "Bearer " + Tokens.user(alice))
                    .POST(HttpRequest.BodyPublishers.ofString(write.getValue())).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as("%s answered %s", write.getKey(), answer.body()).isEqualTo(415);
            assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        }
        as(alice).get("/v1/sessions").then().statusCode(200).body("$", hasSize(1));
        as(alice).get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(1));
        as(alice).get("/v1/profile").then().statusCode(200).body("facts", hasSize(0));
    }

    @Test
    void writesToAnEndedSessionAre409AsDocumented() {
        String id = session(alice);
        as(alice).post("/v1/sessions/{id}/end", id).then().statusCode(200);
        problem(as(alice).body(Map.of("patch", Map.of("goal", "x"))).post("/v1/sessions/{id}/steps", id).then(), 409,
                null).body("detail", containsString("ended"));
        problem(as(alice).body(Map.of("expectedVersion", 2, "patch", Map.of("goal", "x")))
                .post("/v1/sessions/{id}/steps", id).then(), 409, null);
        problem(as(alice).body(Map.of("text", "t")).post("/v1/sessions/{id}/observations", id).then(), 409, null);
        problem(as(alice).body(Map.of("toVersion", 1)).post("/v1/sessions/{id}/rollback", id).then(), 409, null);
        // another user still learns nothing: as a missing session
        String bob = "bob-" + UUID.randomUUID();
        problem(as(bob).body(Map.of("patch", Map.of("goal", "x"))).post("/v1/sessions/{id}/steps", id).then(), 404, null);
        problem(as(bob).body(Map.of("text", "t")).post("/v1/sessions/{id}/observations", id).then(), 404, null);
        problem(as(bob).body(Map.of("toVersion", 1)).post("/v1/sessions/{id}/rollback", id).then(), 404, null);
        // the archive is as the end left it
        as(alice).get("/v1/sessions/{id}/versions", id).then().statusCode(200).body("$", hasSize(2));
    }
}
