package dev.mnemos.server.api;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

/** A {@code service} token acts for the user named in the path on every user-scoped endpoint; a user token never does. */
@QuarkusTest
class ServiceActsForUserTest {

    final String alice = "alice-" + UUID.randomUUID();
    final String bob = "bob-" + UUID.randomUUID();

    static RequestSpecification service() {
        return given().auth().oauth2(Tokens.service("backend")).contentType(ContentType.JSON);
    }

    static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    @Test
    void serviceManagesTheProfileOfTheUserInThePathAndIsAudited() {
        long id = service().body(Map.of("text", "Works as a harbour pilot")).post("/v1/users/{u}/profile/facts", alice)
                .then().statusCode(201).extract().jsonPath().getLong("changes[0].factId");
        as(alice).get("/v1/profile").then().statusCode(200).body("facts.text", equalTo(List.of("Works as a harbour pilot")));
        service().get("/v1/users/{u}/profile/history", alice).then().statusCode(200)
                .body("events[0].actor", equalTo("backend"));
        service().body(Map.of("instruction", "remember I live in Bergen")).post("/v1/users/{u}/profile/instruct", alice)
                .then().statusCode(200);
        service().get("/v1/users/{u}/profile", alice).then().statusCode(200).body("facts", hasSize(2));
        service().get("/v1/users/{u}/profile/pending", alice).then().statusCode(200).body("$", hasSize(0));
        service().delete("/v1/users/{u}/profile/facts/{id}", alice, id).then().statusCode(200);
        as(alice).get("/v1/profile").then().body("facts", hasSize(1));
    }

    @Test
    void aUserTokenCannotUseAnotherUsersPath() {
        as(alice).body(Map.of("text", "Likes tea")).post("/v1/profile/facts").then().statusCode(201);
        as(bob).get("/v1/users/{u}/profile", alice).then().statusCode(404).contentType("application/problem+json");
        as(bob).body(Map.of("text", "Hates tea")).post("/v1/users/{u}/profile/facts", alice).then().statusCode(404);
        as(bob).body(Map.of("instruction", "forget tea")).post("/v1/users/{u}/profile/instruct", alice).then().statusCode(404);
        as(bob).get("/v1/users/{u}/profile/history", alice).then().statusCode(404);
        as(bob).get("/v1/users/{u}/sessions", alice).then().statusCode(404);
        as(bob).body(Map.of("message", "hi")).post("/v1/users/{u}/agent/chat", alice).then().statusCode(404);
        as(alice).get("/v1/profile").then().body("facts.text", equalTo(List.of("Likes tea")));
    }

    @Test
    void serviceTalksToTheAgentForTheUserAndListsTheirSessions() {
        String session = service().body(Map.of("message", "I want to learn to sail"))
                .post("/v1/users/{u}/agent/chat", alice).then().statusCode(200).extract().path("sessionId");
        as(alice).get("/v1/sessions/{id}", session).then().statusCode(200).body("userId", equalTo(alice));
        service().get("/v1/users/{u}/sessions", alice).then().statusCode(200).body("$", hasItem(session));
        as(alice).get("/v1/sessions").then().statusCode(200).body("$", hasItem(session));
    }
}
