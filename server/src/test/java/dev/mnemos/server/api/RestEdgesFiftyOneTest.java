package dev.mnemos.server.api;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * Smaller mismatches at the REST edge (issue 51, item 9): instants beyond what Postgres stores, a key twice in one
 * JSON object, the caching and sniffing headers of every answer, a "remember" longer than a fact may be, and a
 * "forget" that reached only a promotion candidate. Each bad input answers one 400 problem naming the field.
 */
@QuarkusTest
class RestEdgesFiftyOneTest {

    final String alice = "alice-" + UUID.randomUUID();

    static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    static ValidatableResponse problem(ValidatableResponse response, int status, String field) {
        return response.statusCode(status).contentType("application/problem+json").body("status", equalTo(status))
                .body("field", equalTo(field));
    }

    @Test
    void instantsBeyondTheYears0001To9999Are400NamingTheParameter() {
        as(alice).body(Map.of("text", "Likes tea")).post("/v1/profile/facts").then().statusCode(201);
        for (String year : List.of("+999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z", "+10000-01-01T00:00:00Z",
                "-0001-01-01T00:00:00Z", "0000-12-31T23:59:59Z")) {
            problem(as(alice).queryParam("asOf", year).get("/v1/profile").then(), 400, "asOf")
                    .body("detail", containsString("0001 to 9999"));
            problem(as(alice).queryParam("from", year).queryParam("to", "2026-01-01T00:00:00Z").get("/v1/profile/diff")
                    .then(), 400, "from");
            problem(as(alice).queryParam("from", "2026-01-01T00:00:00Z").queryParam("to", year).get("/v1/profile/diff")
                    .then(), 400, "to");
        }
        // the first and the last instant of the range are instants like any other
        as(alice).queryParam("asOf", "0001-01-01T00:00:00Z").get("/v1/profile").then().statusCode(200)
                .body("facts", hasSize(0));
        as(alice).queryParam("asOf", "9999-12-31T23:59:59Z").get("/v1/profile").then().statusCode(200)
                .body("facts", hasSize(1));
        as(alice).queryParam("from", "0001-01-01T00:00:00Z").queryParam("to", "9999-12-31T23:59:59Z")
                .get("/v1/profile/diff").then().statusCode(200);
    }

    @Test
    void aKeyTwiceInOneObjectIs400NamingItAndWritesNothing() {
        String id = start(alice);
        problem(as(alice).body("{\"text\":\"Likes tea\",\"text\":\"Likes coffee\"}").post("/v1/profile/facts").then(),
                400, "text").body("detail", containsString("twice"));
        problem(as(alice).body("{\"goal\":\"a\",\"goal\":\"b\"}").post("/v1/sessions").then(), 400, "goal");
        problem(as(alice).body("{\"expectedVersion\":1,\"patch\":{\"goal\":\"x\",\"goal\":\"y\"}}")
                .post("/v1/sessions/{id}/steps", id).then(), 400, "patch.goal");
        problem(as(alice).body("{\"patch\":{\"addConstraints\":[{\"text\":\"a\"},{\"text\":\"b\",\"text\":\"c\"}]}}")
                .post("/v1/sessions/{id}/steps", id).then(), 400, "patch.addConstraints[1].text");
        problem(as(alice).body("{\"expectedVersion\":1,\"expectedVersion\":1,\"patch\":{\"goal\":\"x\"}}")
                .post("/v1/sessions/{id}/steps", id).then(), 400, "expectedVersion");
        as(alice).get("/v1/profile").then().statusCode(200).body("facts", hasSize(0));
        as(alice).get("/v1/sessions").then().statusCode(200).body("$", hasSize(1));
        as(alice).get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(1));
        // the same key in two objects is no duplicate
        as(alice).body("{\"patch\":{\"goal\":\"x\",\"addConstraints\":[{\"text\":\"a\"},{\"text\":\"b\"}]}}")
                .post("/v1/sessions/{id}/steps", id).then().statusCode(200);
    }

    @Test
    void everyV1AnswerIsNotCachedAndNotSniffed() {
        String id = start(alice);
        List<ValidatableResponse> answers = List.of(
                as(alice).get("/v1/sessions/{id}", id).then().statusCode(200),
                as(alice).get("/v1/profile").then().statusCode(200),
                as(alice).body(Map.of("text", "Likes tea")).post("/v1/profile/facts").then().statusCode(201),
                as(alice).get("/v1/sessions/{id}", "no-such-session").then().statusCode(404),
                as(alice).body("{").post("/v1/profile/facts").then().statusCode(400),
                given().get("/v1/profile").then().statusCode(401),
                as(alice).header("Idempotency-Key", "").body(Map.of("goal", "g")).post("/v1/sessions").then()
                        .statusCode(400));
        for (ValidatableResponse answer : answers) {
            answer.header("Cache-Control", equalTo("no-store")).header("X-Content-Type-Options", equalTo("nosniff"));
        }
    }

    @Test
    void rememberingMoreThanAFactHoldsIs400AsTheFactsEndpointAnswers() {
        String text = "I like " + "very ".repeat(58) + "long trains";
        assertThat(text.length()).isGreaterThan(280);
        problem(as(alice).body(Map.of("text", text)).post("/v1/profile/facts").then(), 400, "text");
        problem(as(alice).body(Map.of("instruction", "remember " + text)).post("/v1/profile/instruct").then(), 400,
                "instruction").body("detail", containsString("280"));
        problem(as(alice).body(Map.of("instruction", "I no longer " + text)).post("/v1/profile/instruct").then(), 400,
                "instruction");
        as(alice).get("/v1/profile").then().statusCode(200).body("facts", hasSize(0));
        // at the limit it is remembered whole
        String longest = "I like trains " + "x".repeat(280 - "I like trains ".length());
        as(alice).body(Map.of("instruction", "remember " + longest)).post("/v1/profile/instruct").then().statusCode(200);
        as(alice).get("/v1/profile").then().statusCode(200).body("facts.text", equalTo(List.of(longest)));
    }

    @Test
    void forgettingOnlyACandidateAnswersTheForgetItWrote() throws Exception {
        String tag = "x" + UUID.randomUUID().toString().substring(0, 8);
        String text = "I like window seats on trains " + tag;
        String session = start(alice);
        observe(alice, session, text, null, false);
        JsonPath report = end(alice, session);
        assertThat(report.getList("pending.text", String.class)).as(report.prettify()).containsExactly(text);

        JsonPath answer = as(alice).body(Map.of("instruction", "forget window seats on trains " + tag))
                .post("/v1/profile/instruct").then().statusCode(200).extract().jsonPath();

        List<Map<String, Object>> changes = answer.getList("changes");
        assertThat(changes).as(answer.prettify()).hasSize(1);
        assertThat(changes.get(0)).containsEntry("action", "FORGET");
        JsonPath history = as(alice).get("/v1/profile/history").then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> forgets = history.<Map<String, Object>> getList("events").stream()
                .filter(e -> "FORGET".equals(e.get("action"))).toList();
        assertThat(forgets).as(history.prettify()).hasSize(1);
        assertThat(((Number) changes.get(0).get("eventId")).longValue())
                .isEqualTo(((Number) forgets.get(0).get("id")).longValue());
        assertThat(answer.prettify()).doesNotContain(tag);
    }
}
