package dev.mnemos.testsupport;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;

import java.util.HashMap;
import java.util.Map;

import static io.restassured.RestAssured.given;

/**
 * The REST API calls the erasure and promotion tests make, as a user or as a service: a session, its observations and its end.
 */
public final class Calls {

    private Calls() {
    }

    public static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    public static RequestSpecification service() {
        return given().auth().oauth2(Tokens.service("backend")).contentType(ContentType.JSON);
    }

    public static String start(String user) {
        return as(user).body(Map.of("goal", "plan a trip")).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
    }

    /** An explicit or inferred preference, with the user's words as evidence when not null. */
    public static void observe(String user, String session, String text, String evidence, boolean explicit) {
        observe(user, session, text, "evidence", evidence, explicit);
    }

    /** An explicit or inferred preference, in {@code slot} when not null. */
    public static void observeInSlot(String user, String session, String text, String slot, boolean explicit) {
        observe(user, session, text, "slot", slot, explicit);
    }

    private static void observe(String user, String session, String text, String field, String value,
            boolean explicit) {
        Map<String, Object> body = new HashMap<>(Map.of("text", text, "kind", "PREFERENCE", "explicit", explicit));
        if (value != null) {
            body.put(field, value);
        }
        as(user).body(body).post("/v1/sessions/{id}/observations", session).then().statusCode(200);
    }

    public static JsonPath end(String user, String session) {
        return as(user).post("/v1/sessions/{id}/end", session).then().statusCode(200).extract().jsonPath();
    }
}
