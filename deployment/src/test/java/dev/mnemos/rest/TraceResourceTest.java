package dev.mnemos.rest;

import dev.langchain4j.model.openai.OpenAiChatModelName;
import dev.langchain4j.model.openai.OpenAiTokenCountEstimator;
import dev.mnemos.injection.ActingAs;
import dev.mnemos.injection.block.TokenEstimator;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.support.JtokkitTokenizer;
import dev.mnemos.support.RestApi;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.Tokens;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

/** A step's trace over the REST API: what the step read, injected and wrote, for its owner only. */
class TraceResourceTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties"),
            jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class,
                    JtokkitTokenizer.class));

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
        ActingAs.user(user).call(() -> ai.chat(id, "hello"));
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
    void theInjectedBlockIsCountedWithTheApplicationsTokenizer() {
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
