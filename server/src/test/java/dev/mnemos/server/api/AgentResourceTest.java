package dev.mnemos.server.api;

import dev.mnemos.agent.offline.OfflineChatModel;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/** The edges of {@code POST /v1/agent/chat}: bad input, ownership, ended sessions, a failing model. */
@QuarkusTest
class AgentResourceTest {

    @Inject
    ScriptedChatModel model;

    private final String user = "u-" + UUID.randomUUID();

    @BeforeEach
    void offlineModel() {
        model.reset();
    }

    @Test
    void missingOrBlankMessageIs400NamingTheField() {
        chat(user, Map.of()).statusCode(400).contentType("application/problem+json").body("field", equalTo("message"));
        chat(user, Map.of("message", "  ")).statusCode(400).body("field", equalTo("message"));
        chat(user, Map.of("message", "x".repeat(4001))).statusCode(400).body("field", equalTo("message"))
                .body("detail", containsString("4000"));
        assertThat(model.requests()).isEmpty();
    }

    @Test
    void malformedSessionIdIs400NamingTheField() {
        chat(user, Map.of("sessionId", "no spaces {allowed}", "message", "hi")).statusCode(400)
                .body("field", equalTo("sessionId"));
    }

    @Test
    void anotherUsersSessionIs404() {
        String sessionId = chat(user, Map.of("message", "I want to learn chess")).statusCode(200)
                .extract().path("sessionId");
        chat("u-" + UUID.randomUUID(), Map.of("sessionId", sessionId, "message", "budget 10 euros"))
                .statusCode(404).body("detail", containsString(sessionId));
        chat(user, Map.of("sessionId", UUID.randomUUID().toString(), "message", "hi")).statusCode(404);
    }

    @Test
    void anEndedSessionIs409() {
        String sessionId = chat(user, Map.of("message", "I want to learn chess")).extract().path("sessionId");
        chat(user, Map.of("sessionId", sessionId, "message", "done, bye")).statusCode(200).body("status", equalTo("ENDED"));
        chat(user, Map.of("sessionId", sessionId, "message", "one more thing")).statusCode(409);
    }

    @Test
    void withoutATokenIs401() {
        given().contentType(ContentType.JSON).body(Map.of("message", "hi")).post("/v1/agent/chat").then().statusCode(401);
    }

    @Test
    void aFailingRouterFallsBackToUnrecognizedAndRecordsNothing() {
        model.script(r -> {
            throw new IllegalStateException("model down");
        });
        chat(user, Map.of("message", "I want to learn chess")).statusCode(200).body("intent", equalTo("UNRECOGNIZED"))
                .body("goal", nullValue()).body("plans.size()", equalTo(0)).body("stepPointer.name", equalTo("collect-goal"));
        model.script(r -> "certainly! here is my answer");
        chat(user, Map.of("message", "I want to learn chess")).statusCode(200).body("intent", equalTo("UNRECOGNIZED"))
                .body("goal", nullValue()).body("plans.size()", equalTo(0));
        assertThat(model.requests()).extracting(r -> OfflineChatModel.promptName(r).orElse(""))
                .containsOnly("route-intent");
    }

    @Test
    void aPlanWithoutStepsIs502AndNoPlanIsWritten() {
        String sessionId = chat(user, Map.of("message", "I want to learn chess")).extract().path("sessionId");
        model.script(r -> switch (OfflineChatModel.promptName(r).orElse("")) {
            case "route-intent" -> "{\"intent\":\"READY_TO_DECOMPOSE\"}";
            case "decompose-plan" -> "{\"title\":\"empty\",\"steps\":[]}";
            default -> "{\"findings\":[]}";
        });
        chat(user, Map.of("sessionId", sessionId, "message", "make the plan")).statusCode(502)
                .body("detail", containsString("nothing was written"));
        given().auth().oauth2(Tokens.user(user)).get("/v1/sessions/" + sessionId).then().statusCode(200)
                .body("plans.size()", equalTo(0));
    }

    @Test
    void anUnparsablePlanIs502AndNoPlanIsWritten() {
        String sessionId = chat(user, Map.of("message", "I want to learn chess")).extract().path("sessionId");
        model.script(r -> switch (OfflineChatModel.promptName(r).orElse("")) {
            case "route-intent" -> "{\"intent\":\"READY_TO_DECOMPOSE\"}";
            case "decompose-plan" -> "Sorry, I cannot help with that.";
            default -> "{\"findings\":[]}";
        });
        chat(user, Map.of("sessionId", sessionId, "message", "make the plan")).statusCode(502)
                .body("detail", containsString("nothing was written"));
        given().auth().oauth2(Tokens.user(user)).get("/v1/sessions/" + sessionId).then().statusCode(200)
                .body("plans.size()", equalTo(0));
    }

    private static ValidatableResponse chat(String userId, Map<String, ?> body) {
        return given().auth().oauth2(Tokens.user(userId)).contentType(ContentType.JSON).body(body)
                .when().post("/v1/agent/chat").then();
    }
}
