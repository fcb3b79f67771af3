package dev.mnemos.agent;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

import java.util.LinkedHashMap;
import java.util.Map;

import static io.restassured.RestAssured.given;

/** Talks to {@code POST /v1/agent/chat} as one user, keeping the session id between messages. */
final class AgentChat {

    private final String token;
    private String sessionId;

    AgentChat(String token) {
        this.token = token;
    }

    JsonPath say(String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sessionId", sessionId);
        body.put("message", message);
        JsonPath answer = given().auth().oauth2(token).contentType(ContentType.JSON).body(body)
                .when().post("/v1/agent/chat").then().log().ifValidationFails().statusCode(200).extract().jsonPath();
        sessionId = answer.getString("sessionId");
        return answer;
    }

    /** Talks in the existing session {@code id} from now on. */
    AgentChat resume(String id) {
        sessionId = id;
        return this;
    }

    String sessionId() {
        return sessionId;
    }

    JsonPath get(String path) {
        return given().auth().oauth2(token).when().get(path).then().log().ifValidationFails().statusCode(200).extract()
                .jsonPath();
    }
}
