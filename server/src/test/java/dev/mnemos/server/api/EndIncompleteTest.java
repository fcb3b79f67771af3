package dev.mnemos.server.api;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

/**
 * A session end whose promotion fails on Postgres after the session was marked ended (here: the user's profile row
 * stays locked past the lock timeout) answers 503 saying that the session is ENDED and that repeating the end
 * completes it; its writes answer 409 meanwhile, and the repeated end does complete it (issue 51, item 9).
 */
@QuarkusTest
class EndIncompleteTest {

    final String alice = "alice-" + UUID.randomUUID();

    static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    @Test
    void a503DuringTheEndSaysTheSessionIsEndedAndARepeatCompletesIt() throws Exception {
        as(alice).body(Map.of("text", "Likes tea")).post("/v1/profile/facts").then().statusCode(201);
        String session = start(alice);
        observe(alice, session, "From now on, answer in French", null, true);
        try (Connection lock = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "")) {
            lock.setAutoCommit(false);
            try (PreparedStatement row = lock
                    .prepareStatement("select user_id from mnemos.profile_owner where user_id = ? for update")) {
                row.setString(1, alice);
                row.executeQuery().close();
            }
            as(alice).post("/v1/sessions/{id}/end", session).then().statusCode(503)
                    .contentType("application/problem+json").header("Retry-After", notNullValue())
                    .body("sessionStatus", equalTo("ENDED")).body("sessionId", equalTo(session))
                    .body("detail", containsString("ENDED")).body("detail", containsString("repeat POST"));
            as(alice).body(Map.of("patch", Map.of("goal", "x"))).post("/v1/sessions/{id}/steps", session).then()
                    .statusCode(409);
            lock.rollback();
        }
        as(alice).post("/v1/sessions/{id}/end", session).then().statusCode(200)
                .body("promoted.text", equalTo(List.of("From now on, answer in French")));
        as(alice).get("/v1/profile").then().statusCode(200).body("facts.text",
                equalTo(List.of("Likes tea", "From now on, answer in French")));
    }
}
