package dev.mnemos.server.api;

import dev.mnemos.rest.Caller;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.smallrye.jwt.build.Jwt;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

/** Point 6 of issue 10: what an outsider, a service token, an odd user id and a token without subject get. */
@QuarkusTest
class IsolationTest {

    final String alice = "alice-" + UUID.randomUUID();
    final String bob = "bob-" + UUID.randomUUID();

    static RequestSpecification with(String token) {
        return given().auth().oauth2(token).contentType(ContentType.JSON);
    }

    String session(String user) {
        return with(Tokens.user(user)).body(Map.of("goal", "alice's plan")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
    }

    /** Status, content type, title, detail with the id replaced, field: everything an outsider can compare. */
    static String shape(ExtractableResponse<Response> r, String id) {
        return r.statusCode() + "|" + r.contentType() + "|" + r.path("title") + "|"
                + String.valueOf((Object) r.path("detail")).replace(id, "<id>") + "|" + r.path("field") + "|"
                + r.header("Retry-After");
    }

    @Test
    void anotherUsersSessionAnswersExactlyAsAMissingOne() {
        String id = session(alice);
        String missing = UUID.randomUUID().toString();
        List<Function<String, ExtractableResponse<Response>>> calls = List.of(
                s -> with(Tokens.user(bob)).get("/v1/sessions/{id}", s).then().extract(),
                s -> with(Tokens.user(bob)).get("/v1/sessions/{id}/versions", s).then().extract(),
                s -> with(Tokens.user(bob)).get("/v1/sessions/{id}/versions/1", s).then().extract(),
                // reads check the owner after one round trip: a version out of range, or a view,
                // still fails as a missing session does
                s -> with(Tokens.user(bob)).get("/v1/sessions/{id}/versions/99", s).then().extract(),
                s -> with(Tokens.user(bob)).get("/v1/sessions/{id}?plans=all", s).then().extract(),
                s -> with(Tokens.user(bob)).body(Map.of("fromVersion", 99)).post("/v1/sessions/{id}/fork", s).then()
                        .extract(),
                s -> with(Tokens.user(bob)).header("Idempotency-Key", "k-" + s).body(Map.of("fromVersion", 1))
                        .post("/v1/sessions/{id}/fork", s).then().extract(),
                s -> with(Tokens.user(bob)).get("/v1/sessions/{id}/events", s).then().extract(),
                s -> with(Tokens.user(bob)).body(Map.of("patch", Map.of("goal", "x"))).post("/v1/sessions/{id}/steps", s)
                        .then().extract(),
                s -> with(Tokens.user(bob)).body(Map.of("text", "x")).post("/v1/sessions/{id}/observations", s).then()
                        .extract(),
                s -> with(Tokens.user(bob)).body(Map.of("toVersion", 1)).post("/v1/sessions/{id}/rollback", s).then()
                        .extract(),
                s -> with(Tokens.user(bob)).body(Map.of("fromVersion", 1)).post("/v1/sessions/{id}/fork", s).then()
                        .extract(),
                s -> with(Tokens.user(bob)).post("/v1/sessions/{id}/end", s).then().extract(),
                s -> with(Tokens.user(bob)).delete("/v1/sessions/{id}", s).then().extract());
        for (var call : calls) {
            String foreign = shape(call.apply(id), id);
            assertThat(foreign).startsWith("404|application/problem+json|Not Found|no session '<id>'")
                    .isEqualTo(shape(call.apply(missing), missing));
        }
        with(Tokens.user(alice)).get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(1));
        // the outsider's forks wrote nothing: alice still has her one session, bob has none
        with(Tokens.user(alice)).get("/v1/sessions").then().statusCode(200).body("$", equalTo(List.of(id)));
        with(Tokens.user(bob)).get("/v1/sessions").then().statusCode(200).body("$", hasSize(0));
        // alice's own keyed fork still works, and the key is hers alone
        String fork = with(Tokens.user(alice)).header("Idempotency-Key", "k-" + id).body(Map.of("fromVersion", 1))
                .post("/v1/sessions/{id}/fork", id).then().statusCode(201).extract().path("sessionId");
        with(Tokens.user(bob)).header("Idempotency-Key", "k-" + id).body(Map.of("fromVersion", 1))
                .post("/v1/sessions/{id}/fork", id).then().statusCode(404);
        with(Tokens.user(alice)).get("/v1/sessions/{id}", fork).then().statusCode(200).body("userId", equalTo(alice));
    }

    @Test
    void aServiceTokenActsOnSessionsOnlyThroughTheUsersPath() {
        String service = Tokens.service("backend-" + UUID.randomUUID());
        String id = session(alice);
        String missing = UUID.randomUUID().toString();
        assertThat(shape(with(service).get("/v1/sessions/{id}", id).then().extract(), id))
                .isEqualTo(shape(with(service).get("/v1/sessions/{id}", missing).then().extract(), missing));
        with(service).body(Map.of("patch", Map.of("goal", "hijack"))).post("/v1/sessions/{id}/steps", id).then()
                .statusCode(404);
        with(service).post("/v1/sessions/{id}/end", id).then().statusCode(404);

        with(service).get("/v1/users/{u}/sessions/{id}", alice, id).then().statusCode(200).body("userId", equalTo(alice));
        with(service).body(Map.of("patch", Map.of("goal", "for alice"))).post("/v1/users/{u}/sessions/{id}/steps", alice, id)
                .then().statusCode(200).body("version", equalTo(2));
        with(service).get("/v1/users/{u}/sessions/{id}/versions", alice, id).then().statusCode(200).body("$", hasSize(2));
        with(service).get("/v1/users/{u}/sessions/{id}", bob, id).then().statusCode(404);
        with(Tokens.user(bob)).get("/v1/users/{u}/sessions/{id}", alice, id).then().statusCode(404)
                .contentType("application/problem+json");
        with(Tokens.user(alice)).get("/v1/users/{u}/sessions/{id}", alice, id).then().statusCode(200)
                .body("goal", equalTo("for alice"));
        with(service).post("/v1/users/{u}/sessions/{id}/end", alice, id).then().statusCode(200);
        with(Tokens.user(alice)).get("/v1/sessions").then().statusCode(200).body("$", hasSize(0));
    }

    @Test
    void userIdsInPathsAreValidatedAsIds() {
        String service = Tokens.service("backend-" + UUID.randomUUID());
        for (String bad : List.of("-1", "-", "@x", ".hidden", "_x", "a b", "x".repeat(129))) {
            with(service).body(Map.of("goal", "g")).post("/v1/users/{u}/sessions", bad).then().statusCode(400)
                    .contentType("application/problem+json").body("field", equalTo("userId"));
            with(service).get("/v1/users/{u}/profile", bad).then().statusCode(400).body("field", equalTo("userId"));
            with(service).get("/v1/users/{u}/sessions/{id}", bad, "s-1").then().statusCode(400)
                    .body("field", equalTo("userId"));
        }
        for (String dots : List.of("%2E%2E", "..%2F", "%2E", "%2E%2E%2F%2E%2E")) {
            // encoded dot segments: the server normalises /v1/users/../sessions to /v1/sessions (the caller's own),
            // or refuses the id (/v1/users/sessions is the erase route: 405 to a POST); never a session for the user ".."
            ExtractableResponse<Response> r = with(service).urlEncodingEnabled(false).body(Map.of("goal", "g"))
                    .post("/v1/users/" + dots + "/sessions").then().extract();
            assertThat(r.statusCode()).as(dots).isIn(201, 400, 404, 405);
            if (r.statusCode() == 201) {
                assertThat((Object) r.path("userId")).as(dots).isNotEqualTo("..").isNotEqualTo(".");
            }
        }
        with(service).get("/v1/users/{u}/sessions", "%00").then().statusCode(400).body("field", equalTo("userId"));
        for (String good : List.of("a", "1", "user@example.com", "tenant:42", "x".repeat(128), "a..b")) {
            with(service).body(Map.of("goal", "g")).post("/v1/users/{u}/sessions", good).then().statusCode(201)
                    .body("userId", equalTo(good));
            with(service).get("/v1/users/{u}/sessions", good).then().statusCode(200).body("$", hasItem(
                    Matchers.any(String.class)));
        }
    }

    @Test
    void aSignedTokenWithoutASubjectIs401() {
        String empty = Jwt.issuer("mnemos").subject("").upn("mallory").groups(Set.of("user", Caller.SERVICE_ROLE))
                .expiresIn(Duration.ofHours(1)).sign();
        String blank = Jwt.issuer("mnemos").subject("   ").upn("mallory").groups(Set.of("user"))
                .expiresIn(Duration.ofHours(1)).sign();
        String none = Jwt.issuer("mnemos").upn("mallory").groups(Set.of("user")).expiresIn(Duration.ofHours(1)).sign();
        for (String token : List.of(empty, blank, none)) {
            with(token).get("/v1/sessions").then().statusCode(401);
            with(token).body(Map.of("goal", "g")).post("/v1/sessions").then().statusCode(401);
            with(token).get("/v1/profile").then().statusCode(401);
            with(token).body(Map.of("text", "x")).post("/v1/profile/facts").then().statusCode(401);
        }
    }
}
