package dev.mnemos.server.api;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * NUL characters and lone surrogates anywhere in a request string, empty or {@code null} bodies, trailing JSON,
 * over-long URIs and headers: each answers a 4xx problem naming the field, and nothing is written.
 */
@QuarkusTest
class HostileInputTest {

    static final String NUL = "a\u0000b";
    static final String SURROGATE = "a\ud800b";
    static final String LOW_SURROGATE = "\udc00tail";

    final String alice = "alice-" + UUID.randomUUID();

    static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    String session() {
        return as(alice).body(Map.of("goal", "hostile")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
    }

    /** Every character as a JSON {@code \\uXXXX} escape. */
    static String escaped(String text) {
        StringBuilder json = new StringBuilder();
        text.chars().forEach(c -> json.append(String.format("\\u%04x", c)));
        return json.toString();
    }

    static ValidatableResponse refused(ValidatableResponse response, String field) {
        return response.statusCode(400).contentType("application/problem+json").body("status", equalTo(400))
                .body("field", equalTo(field));
    }

    @Test
    void nulAndLoneSurrogatesInProfileWritesAre400NamingTheFieldAndWriteNothing() {
        for (String bad : List.of(NUL, SURROGATE, LOW_SURROGATE)) {
            refused(as(alice).body(Map.of("text", bad)).post("/v1/profile/facts").then(), "text")
                    .body("detail", containsString("NUL"));
            refused(as(alice).body(Map.of("text", "Likes tea", "slot", bad)).post("/v1/profile/facts").then(), "slot");
            refused(as(alice).body(Map.of("instruction", "remember " + bad)).post("/v1/profile/instruct").then(),
                    "instruction");
            refused(as(alice).body(Map.of("text", "I live in " + bad)).post("/v1/profile/import").then(), "text");
            refused(as(alice).body(Map.of("text", bad)).put("/v1/profile/facts/1").then(), "text");
        }
        as(alice).get("/v1/profile").then().statusCode(200).body("facts", hasSize(0));
        as(alice).get("/v1/profile/history").then().statusCode(200).body("events", hasSize(0));
    }

    @Test
    void nulAndLoneSurrogatesInSessionWritesAre400NamingTheFieldAndWriteNothing() {
        String id = session();
        for (String bad : List.of(NUL, SURROGATE, LOW_SURROGATE)) {
            refused(as(alice).body(Map.of("goal", bad)).post("/v1/sessions").then(), "goal");
            refused(as(alice).body(Map.of("goal", "ok", "constraints", List.of(Map.of("text", bad))))
                    .post("/v1/sessions").then(), "constraints[0].text");
            refused(as(alice).body(Map.of("patch", Map.of("goal", bad))).post("/v1/sessions/{id}/steps", id).then(),
                    "patch.goal");
            refused(as(alice).body(Map.of("patch", Map.of("putCollected", Map.of("city", bad))))
                    .post("/v1/sessions/{id}/steps", id).then(), "patch.putCollected.city");
            // the key goes as JSON escapes: Jackson's generator writes a lone surrogate in a field name as bytes
            // that are not UTF-8, which the server rightly refuses as a body that is not JSON
            refused(as(alice).body("{\"patch\":{\"putCollected\":{\"" + escaped(bad) + "\":\"x\"}}}")
                    .post("/v1/sessions/{id}/steps", id).then(), "patch.putCollected.<key>");
            refused(as(alice).body(Map.of("patch", Map.of("addOpenQuestions", List.of("fine", bad))))
                    .post("/v1/sessions/{id}/steps", id).then(), "patch.addOpenQuestions[1]");
            refused(as(alice).body(Map.of("patch", Map.of("goal", "x"), "note", bad))
                    .post("/v1/sessions/{id}/steps", id).then(), "note");
            refused(as(alice).body(Map.of("text", bad, "kind", "PREFERENCE"))
                    .post("/v1/sessions/{id}/observations", id).then(), "text");
            refused(as(alice).body(Map.of("text", "ok", "evidence", bad))
                    .post("/v1/sessions/{id}/observations", id).then(), "evidence");
        }
        as(alice).get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(1))
                .body("goal", equalTo("hostile"));
        as(alice).get("/v1/sessions").then().statusCode(200).body("$", hasSize(1));
    }

    @Test
    void nulInAnAgentMessageIs400AndCallsNoModel() {
        refused(as(alice).body(Map.of("message", "plan " + NUL)).post("/v1/agent/chat").then(), "message");
        refused(as(alice).body(Map.of("message", SURROGATE)).post("/v1/agent/chat").then(), "message");
        as(alice).get("/v1/sessions").then().statusCode(200).body("$", hasSize(0));
    }

    @Test
    void emptyNullAndTrailingBodiesAre400OnEveryWrite() {
        String id = session();
        List<String> paths = List.of("/v1/sessions", "/v1/users/" + alice + "/sessions", "/v1/sessions/" + id + "/steps",
                "/v1/sessions/" + id + "/observations", "/v1/sessions/" + id + "/rollback", "/v1/sessions/" + id + "/fork",
                "/v1/profile/facts", "/v1/profile/instruct", "/v1/profile/import", "/v1/agent/chat");
        for (String path : paths) {
            for (String body : List.of("", "null", " null ", "{}{}", "{} []", "{}x")) {
                refused(as(alice).body(body).post(path).then(), "body");
            }
        }
        refused(as(alice).body("{\"goal\":\"a\"}{\"goal\":\"b\"}").post("/v1/sessions").then(), "body");
        for (String body : List.of("", "null", "{\"text\":\"a\"}{\"text\":\"b\"}")) {
            refused(as(alice).body(body).put("/v1/profile/facts/1").then(), "body");
        }
        as(alice).get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(1));
        as(alice).get("/v1/sessions").then().statusCode(200).body("$", hasSize(1));
        as(alice).get("/v1/profile").then().statusCode(200).body("facts", hasSize(0));
    }

    @Test
    void aNonJsonBodyIs415AndWritesNothing() {
        for (String type : List.of("text/plain", "application/x-www-form-urlencoded", "application/xml")) {
            for (String path : List.of("/v1/profile/instruct", "/v1/profile/import", "/v1/profile/facts", "/v1/sessions")) {
                given().auth().oauth2(Tokens.user(alice)).contentType(type).body("remember I like tea").post(path).then()
                        .statusCode(415).contentType("application/problem+json");
            }
        }
        as(alice).get("/v1/profile").then().statusCode(200).body("facts", hasSize(0));
        as(alice).get("/v1/sessions").then().statusCode(200).body("$", hasSize(0));
    }

    @Test
    void deepNestingIsRefusedBeforeBinding() {
        refused(as(alice).body("{\"text\":" + "[".repeat(2000) + "]".repeat(2000) + "}").post("/v1/profile/facts").then(),
                "body").body("detail", containsString("nesting"));
        refused(as(alice).body("{\"patch\":" + "{\"a\":".repeat(100) + "1" + "}".repeat(100) + "}")
                .post("/v1/sessions/{id}/steps", session()).then(), "body");
    }

    @Test
    void aBodyOverTheCodecLimitIs413AsAProblem() {
        as(alice).body("{\"text\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}").post("/v1/profile/facts").then()
                .statusCode(413).contentType("application/problem+json");
    }

    @Test
    void anOverlongUriIs414AsAProblem() {
        given().auth().oauth2(Tokens.user(alice)).get("/v1/sessions/" + "a".repeat(9000)).then().statusCode(414)
                .contentType("application/problem+json").body("status", equalTo(414)).body("field", equalTo("uri"));
        given().auth().oauth2(Tokens.user(alice)).queryParam("q", "x".repeat(9000)).get("/v1/profile").then()
                .statusCode(414).contentType("application/problem+json");
    }

    @Test
    void overlargeHeadersAre431AsAProblem() {
        given().auth().oauth2(Tokens.user(alice)).header("X-Padding", "p".repeat(20_000)).get("/v1/profile").then()
                .statusCode(431).contentType("application/problem+json").body("status", equalTo(431))
                .body("field", equalTo("headers"));
    }
}
