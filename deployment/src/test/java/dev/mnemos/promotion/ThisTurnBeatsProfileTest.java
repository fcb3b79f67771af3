package dev.mnemos.promotion;

import dev.mnemos.injection.ActingAs;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.support.JtokkitTokenizer;
import dev.mnemos.support.Requests;
import dev.mnemos.support.RestApi;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.Tokens;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

/**
 * End to end through the real profile (Postgres), the interceptor and the end of the task: a "reply in English this
 * time" beats the profile's Chinese for this session only; and a step's trace is still served after the task ended and
 * its Redis keys are gone, and forget scrubs it (the archive's, {@code dev.mnemos.archive}: the same application).
 */
class ThisTurnBeatsProfileTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            // the server's setting: Mnemos' extraction, reconcile and summaries take their deterministic paths
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false"),
            jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class,
                    JtokkitTokenizer.class, Requests.class));

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;

    @Test
    void englishThisTimeOverridesTheSessionButTheProfileStillSaysChineseAfterTheEnd() {
        String user = "u-" + SessionIds.newId();
        String token = Tokens.user(user);
        given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Map.of("category", "LANGUAGE", "slot", "output.language", "text", "Always answer in Chinese"))
                .post("/v1/profile/facts").then().statusCode(201);
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("plan a weekend in Hangzhou").build()).by("t"))
                .sessionId();
        model.reset();
        model.script(request -> "Sure, here is the plan in English.");

        ActingAs.user(user).call(() -> ai.chat(id, "Reply in English this time, please"));
        ActingAs.user(user).call(() -> ai.chat(id, "What about food?"));

        String first = Requests.system(model.requests().get(0));
        String second = Requests.system(model.requests().get(1));
        assertThat(first).contains("Always answer in Chinese", "English", "overrode these profile preferences");
        assertThat(second).as("the override holds for the rest of the session").contains("English",
                "overrode these profile preferences");
        assertThat(store.get(id).observations()).anySatisfy(o -> assertThat(o.text()).contains("English"));

        given().auth().oauth2(token).post("/v1/sessions/{id}/end", id).then().statusCode(200);

        List<String> facts = given().auth().oauth2(token).get("/v1/profile").then().statusCode(200)
                .extract().jsonPath().getList("facts.text", String.class);
        assertThat(facts).contains("Always answer in Chinese").noneMatch(f -> f.contains("English"));
    }

    // a step's trace after the end (dev.mnemos.archive)

    @Test
    void traceOutlivesTheSessionKeysAndForgetRemovesTheFactFromIt() {
        endThenForget("works on tidal turbines in Orkney", "tidal turbines in Orkney");
    }

    @Test
    void forgetFindsTextThatTheBlockHadToEscape() {
        endThenForget("Lives at \"Rose <Cottage>\" \\ Lane\nsecond line", "Rose");
    }

    private void endThenForget(String fact, String marker) {
        String user = "u-" + SessionIds.newId();
        String token = Tokens.user(user);
        long factId = given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Map.of("category", "DOMAIN", "text", fact))
                .post("/v1/profile/facts").then().statusCode(201).extract().jsonPath().getLong("changes[0].factId");
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("write a grant proposal").build()).by("t"))
                .sessionId();
        model.reset();
        model.script(request -> "a first outline");
        ActingAs.user(user).call(() -> ai.chat(id, "start please"));

        given().auth().oauth2(token).post("/v1/sessions/{id}/end", id).then().statusCode(200);
        assertThat(redis.key().exists(SessionKeys.trace(id))).isFalse();

        given().auth().oauth2(token).get("/v1/sessions/{id}/steps/2/trace", id).then().statusCode(200)
                .body("step", equalTo("chat")).body("read.sessionVersion", equalTo(1))
                .body("injected.block", containsString(marker));
        given().auth().oauth2(Tokens.user("other-" + SessionIds.newId())).get("/v1/sessions/{id}/steps/2/trace", id)
                .then().statusCode(404);

        given().auth().oauth2(token).delete("/v1/profile/facts/{f}", factId).then().statusCode(200);
        given().auth().oauth2(token).get("/v1/sessions/{id}/steps/2/trace", id).then().statusCode(200)
                .body("injected.block", not(containsString(marker)));
    }
}
