package dev.mnemos.erasure;

import dev.mnemos.support.Tokens;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;

import java.util.HashMap;
import java.util.Map;

import static io.restassured.RestAssured.given;

/** The HTTP calls the erasure tests make, as a user or as a service. */
final class Calls {

    private Calls() {
    }

    static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    static RequestSpecification service() {
        return given().auth().oauth2(Tokens.service("backend")).contentType(ContentType.JSON);
    }

    static String start(String user) {
        return as(user).body(Map.of("goal", "plan a trip")).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
    }

    /** An explicit or inferred preference, with the user's words as evidence when not null. */
    static void observe(String user, String session, String text, String evidence, boolean explicit) {
        Map<String, Object> body = new HashMap<>(Map.of("text", text, "kind", "PREFERENCE", "explicit", explicit));
        if (evidence != null) {
            body.put("evidence", evidence);
        }
        as(user).body(body).post("/v1/sessions/{id}/observations", session).then().statusCode(200);
    }

    static JsonPath end(String user, String session) {
        return as(user).post("/v1/sessions/{id}/end", session).then().statusCode(200).extract().jsonPath();
    }
}
