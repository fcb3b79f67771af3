package dev.mnemos.server.injection;

import dev.langchain4j.model.openai.OpenAiChatModelName;
import dev.langchain4j.model.openai.OpenAiTokenCountEstimator;
import dev.mnemos.injection.block.TokenEstimator;
import dev.mnemos.server.api.Tokens;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

@QuarkusTest
class TraceResourceTest {

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    SessionStore store;

    private String user;
    private String id;

    @BeforeEach
    void setUp() {
        model.reset();
        model.script(request -> "traced answer");
        user = "u-" + SessionIds.newId();
        id = store.create(NewSession.of(user, SessionPatch.builder().goal("trace me").build()).by("test")).sessionId();
        ai.chat(id, "hello");
    }

    @Test
    void ownerReadsWhatTheStepReadInjectedAndWrote() {
        given().auth().oauth2(Tokens.user(user))
                .get("/v1/sessions/{id}/steps/{v}/trace", id, 2)
                .then().statusCode(200)
                .body("sessionId", is(id))
                .body("read.sessionVersion", is(1))
                .body("read.profile", is("LOADED"))
                .body("injected.block", containsString("goal: \"trace me\""))
                .body("written.version", is(2))
                .body("written.fields", hasItem("collected.answer.chat"));
    }

    @Test
    void theInjectedBlockIsCountedWithTheServersTokenizer() {
        String block = given().auth().oauth2(Tokens.user(user)).get("/v1/sessions/{id}/steps/{v}/trace", id, 2)
                .then().statusCode(200).extract().path("injected.block");
        int tokens = given().auth().oauth2(Tokens.user(user)).get("/v1/sessions/{id}/steps/{v}/trace", id, 2)
                .then().extract().path("injected.tokens");
        int jtokkit = new OpenAiTokenCountEstimator(
                OpenAiChatModelName.GPT_4_O_MINI).estimateTokenCountInText(block);
        assertThat(tokens).isEqualTo(jtokkit).isNotEqualTo(TokenEstimator.estimate(block));
    }

    @Test
    void anotherUserGetsNotFound() {
        given().auth().oauth2(Tokens.user("u-" + SessionIds.newId()))
                .get("/v1/sessions/{id}/steps/{v}/trace", id, 2)
                .then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void serviceReadsAUsersTraceThroughTheUsersPathOnly() {
        given().auth().oauth2(Tokens.service("agent-backend"))
                .get("/v1/sessions/{id}/steps/{v}/trace", id, 2)
                .then().statusCode(404);
        given().auth().oauth2(Tokens.service("agent-backend"))
                .get("/v1/users/{u}/sessions/{id}/steps/{v}/trace", user, id, 2)
                .then().statusCode(200).body("userId", is(user));
    }

    @Test
    void versionNoStepWroteIsNotFound() {
        given().auth().oauth2(Tokens.user(user))
                .get("/v1/sessions/{id}/steps/{v}/trace", id, 1)
                .then().statusCode(404);
    }

    @Test
    void unauthenticatedIsRejected() {
        given().get("/v1/sessions/{id}/steps/{v}/trace", id, 2).then().statusCode(401);
    }
}
