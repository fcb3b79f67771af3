package dev.mnemos.server.api;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

@QuarkusTest
class SessionResourceTest {

    static final String TRICKY = "预算五千 🚀🧭 שלום עולם \"quoted\" 'single' back\\slash\nnew line\ttab";

    final String alice = "alice-" + UUID.randomUUID();
    final String bob = "bob-" + UUID.randomUUID();

    static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    String createSession(String user) {
        return as(user).body(Map.of("goal", "plan a trip", "constraints",
                List.of(Map.of("text", "budget 5000 this time", "scope", "TASK"))))
                .post("/v1/sessions").then().statusCode(201).body("version", equalTo(1))
                .extract().path("sessionId");
    }

    @Test
    void sessionLifeOverHttp() {
        String id = createSession(alice);
        as(alice).body(Map.of("expectedVersion", 1, "patch", Map.of("putCollected", Map.of("city", "Kyoto"),
                "stepPointer", Map.of("index", 1, "name", "collect"))))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(200).body("version", equalTo(2));
        as(alice).body(Map.of("patch", Map.of("addPlan", Map.of("content", "1. fly\n2. walk"))))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(200).body("version", equalTo(3));
        as(alice).body(Map.of("expectedVersion", 1, "patch", Map.of("goal", "lost")))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(409)
                .contentType("application/problem+json").body("currentVersion", equalTo(3));
        as(alice).get("/v1/sessions/{id}", id).then().statusCode(200)
                .body("goal", equalTo("plan a trip")).body("collected.city", equalTo("Kyoto"))
                .body("stepPointer.name", equalTo("collect")).body("plans", hasSize(1));
        as(alice).get("/v1/sessions/{id}/versions", id).then().statusCode(200).body("version", hasSize(3));
        as(alice).get("/v1/sessions/{id}/versions/{v}", id, 2).then().statusCode(200).body("plans", hasSize(0));
        as(alice).body(Map.of("toVersion", 2)).post("/v1/sessions/{id}/rollback", id).then().statusCode(200)
                .body("version", equalTo(4)).body("plans", hasSize(0));
        String fork = as(alice).body(Map.of("fromVersion", 3)).post("/v1/sessions/{id}/fork", id).then()
                .statusCode(201).body("forkedFrom.sessionId", equalTo(id)).extract().path("sessionId");
        as(alice).get("/v1/sessions/{id}", fork).then().statusCode(200).body("plans", hasSize(1));
        as(alice).body(Map.of("text", "always answers in Chinese", "kind", "PREFERENCE", "scope", "STABLE", "explicit", true))
                .post("/v1/sessions/{id}/observations", id).then().statusCode(200).body("version", equalTo(5));
        as(alice).get("/v1/sessions/{id}/events", id).then().statusCode(200)
                .body("type", equalTo(List.of("CREATE", "PATCH", "PATCH", "ROLLBACK", "PATCH")));
        as(alice).delete("/v1/sessions/{id}", id).then().statusCode(204);
        as(alice).get("/v1/sessions/{id}", id).then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void textRoundTripsByteIdentical() {
        String id = as(alice).body(Map.of("goal", TRICKY, "context", TRICKY)).post("/v1/sessions")
                .then().statusCode(201).extract().path("sessionId");
        as(alice).body(Map.of("patch", Map.of("putCollected", Map.of(TRICKY, TRICKY), "addOpenQuestions",
                List.of(TRICKY), "addPlan", Map.of("content", TRICKY, "feedback", TRICKY),
                "addConstraints", List.of(Map.of("text", TRICKY)))))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(200);
        Response r = as(alice).get("/v1/sessions/{id}", id);
        assertThat(r.<String> path("goal")).isEqualTo(TRICKY);
        assertThat(r.<String> path("context")).isEqualTo(TRICKY);
        assertThat(r.<Map<String, String>> path("collected")).containsEntry(TRICKY, TRICKY);
        assertThat(r.<String> path("openQuestions[0]")).isEqualTo(TRICKY);
        assertThat(r.<String> path("plans[0].content")).isEqualTo(TRICKY);
        assertThat(r.<String> path("plans[0].feedback")).isEqualTo(TRICKY);
        assertThat(r.<String> path("constraints[0].text")).isEqualTo(TRICKY);
        assertThat(as(alice).get("/v1/sessions/{id}/versions/1", id).<String> path("goal")).isEqualTo(TRICKY);
    }

    @Test
    void anotherUserGetsNotFoundOnEveryEndpointAndServiceMayActForTheOwner() {
        String id = createSession(alice);
        as(bob).get("/v1/sessions/{id}", id).then().statusCode(404);
        as(bob).body(Map.of("patch", Map.of("goal", "hijack"))).post("/v1/sessions/{id}/steps", id).then().statusCode(404);
        as(bob).get("/v1/sessions/{id}/versions", id).then().statusCode(404);
        as(bob).get("/v1/sessions/{id}/versions/1", id).then().statusCode(404);
        as(bob).get("/v1/sessions/{id}/events", id).then().statusCode(404);
        as(bob).body(Map.of("toVersion", 1)).post("/v1/sessions/{id}/rollback", id).then().statusCode(404);
        as(bob).body(Map.of("fromVersion", 1)).post("/v1/sessions/{id}/fork", id).then().statusCode(404);
        as(bob).body(Map.of("text", "x")).post("/v1/sessions/{id}/observations", id).then().statusCode(404);
        as(bob).delete("/v1/sessions/{id}", id).then().statusCode(404);
        as(bob).body(Map.of()).post("/v1/users/{u}/sessions", alice).then().statusCode(404);
        given().auth().oauth2(Tokens.userWithUpn(bob, alice)).get("/v1/sessions/{id}", id).then().statusCode(404);
        given().auth().oauth2(Tokens.userWithUpn(bob, alice)).contentType(ContentType.JSON).body(Map.of("goal", "mine"))
                .post("/v1/sessions").then().statusCode(201).body("userId", equalTo(bob));
        given().get("/v1/sessions/{id}", id).then().statusCode(401);
        given().contentType(ContentType.JSON).body(Map.of()).post("/v1/sessions").then().statusCode(401);

        given().auth().oauth2(Tokens.service("backend")).get("/v1/sessions/{id}", id).then().statusCode(404)
                .body("detail", equalTo("no session '" + id + "'"));
        given().auth().oauth2(Tokens.service("backend")).get("/v1/users/{u}/sessions/{id}", alice, id).then()
                .statusCode(200).body("goal", equalTo("plan a trip"));
        given().auth().oauth2(Tokens.service("backend")).contentType(ContentType.JSON).body(Map.of("goal", "for alice"))
                .post("/v1/users/{u}/sessions", alice).then().statusCode(201).body("userId", equalTo(alice));
        as(alice).get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(1)).body("goal",
                equalTo("plan a trip"));
    }

    @Test
    void malformedRequestsAnswerProblemsNamingTheFieldAndWriteNothing() {
        String id = createSession(alice);
        bad(as(alice).body("{\"patch\":{\"goal\":\"x\"},\"bogus\":1}"), id, "bogus");
        bad(as(alice).body("{\"patch\":{\"gaol\":\"x\"}}"), id, "patch.gaol");
        bad(as(alice).body("{\"patch\":{\"stepPointer\":{\"index\":\"abc\"}}}"), id, "patch.stepPointer.index");
        bad(as(alice).body("{\"expectedVersion\":-3,\"patch\":{\"goal\":\"x\"}}"), id, "expectedVersion");
        bad(as(alice).body("{\"patch\":{}}"), id, "patch");
        bad(as(alice).body("{\"patch\":{\"addConstraints\":[{\"text\":\"  \"}]}}"), id, "patch.addConstraints[0].text");
        bad(as(alice).body("{\"patch\":{\"addPlan\":{\"content\":\"p\",\"score\":42}}}"), id, "patch.addPlan.score");
        bad(as(alice).body("{not json"), id, "body");
        bad(as(alice).body("[1,2]"), id, "body");
        as(alice).body("{\"patch\":{\"goal\":\"" + "x".repeat(300_000) + "\"}}").post("/v1/sessions/{id}/steps", id)
                .then().statusCode(413).contentType("application/problem+json").body("field", equalTo("body"));
        as(alice).body("{\"constraints\":[null]}").post("/v1/sessions").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("patch.addConstraints[0]"));
        as(alice).body(Map.of("text", "answers in Chinese", "slot", "x".repeat(200)))
                .post("/v1/sessions/{id}/observations", id).then().statusCode(400)
                .body("field", equalTo("patch.addObservations[0].slot"));
        as(alice).body(Map.of("toVersion", -1)).post("/v1/sessions/{id}/rollback", id).then().statusCode(400)
                .body("field", equalTo("toVersion"));
        as(alice).body(Map.of("toVersion", 99)).post("/v1/sessions/{id}/rollback", id).then().statusCode(404)
                .body("field", equalTo("version"));
        as(alice).get("/v1/sessions/{id}/versions/0", id).then().statusCode(400).body("field", equalTo("version"));
        as(alice).get("/v1/sessions/{id}", "%20").then().statusCode(400).body("field", equalTo("sessionId"));
        given().urlEncodingEnabled(false).auth().oauth2(Tokens.user(alice)).get("/v1/sessions/a%7Bb%7Dc").then().statusCode(400)
                .body("field", equalTo("sessionId"));
        as(alice).get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(1))
                .body("goal", equalTo("plan a trip"));
    }

    private static void bad(RequestSpecification request, String id, String field) {
        request.post("/v1/sessions/{id}/steps", id).then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo(field))
                .body("detail", containsString(field))
                .body("status", equalTo(400));
    }
}
