package org.acme.packing;

import dev.mnemos.app.NoEndedSessions;
import dev.mnemos.app.SessionEnd;
import dev.mnemos.app.SessionOnlyEnd;
import dev.mnemos.archive.EndedSessions;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.promotion.PromotionService;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

/**
 * Session memory with Redis alone, as a user's app gets it from {@code quarkus-mnemos-session}: no datasource is
 * configured, two {@code @SessionMemory} steps share the session, the step trace is read over Mnemos' REST API and
 * ending the session says that no profile is configured.
 */
@QuarkusTest
class RedisOnlySessionTest {

    @Inject
    ScriptedModel model;

    @Test
    void twoStepsShareTheSessionAndTheEndSaysNoProfileIsConfigured() {
        assertThat(ConfigProvider.getConfig().getOptionalValue("quarkus.datasource.db-kind", String.class)).isEmpty();
        String alice = "alice-" + UUID.randomUUID();
        String id = "packing-" + UUID.randomUUID();
        String first = "What do I pack for Tromso in March? " + UUID.randomUUID();
        String second = "Did I forget anything? " + UUID.randomUUID();

        String listed = post(alice, id, "list", first);
        String checked = post(alice, id, "check", second);

        assertThat(listed).contains("[list-");
        assertThat(checked).contains("[list-").isNotEqualTo(listed);
        // the first step's answer reaches the second prompt: the memory block names it, the conversation carries it
        assertThat(model.systemMessageFor(first)).doesNotContain("answer.list");
        assertThat(model.earlierAnswersFor(first)).isEmpty();
        assertThat(model.systemMessageFor(second)).startsWith("You check the packing list").contains("step: 1 \"list\"")
                .contains("\"answer.list\"");
        assertThat(model.earlierAnswersFor(second)).containsExactly(listed);

        // the first call started the session (version 1), its step wrote version 2, the second step version 3
        given().auth().preemptive().basic(alice, PackingUsers.PASSWORD).get("/v1/sessions/{id}/steps/3/trace", id)
                .then().statusCode(200).body("step", equalTo("check")).body("userId", equalTo(alice))
                .body("read.sessionVersion", equalTo(2)).body("injected.block", containsString("answer.list"));
        given().auth().preemptive().basic("bob-" + UUID.randomUUID(), PackingUsers.PASSWORD)
                .get("/v1/sessions/{id}/steps/3/trace", id).then().statusCode(404);

        ExtractableResponse<Response> end = given().auth().preemptive().basic(alice, PackingUsers.PASSWORD)
                .post("/v1/sessions/{id}/end", id).then().statusCode(200).body("sessionId", equalTo(id))
                .body("userId", equalTo(alice)).body("promoted", empty()).body("pending", empty())
                .body("profileChanges", empty()).extract();
        assertThat(end.path("notice").toString()).contains("No profile is configured").contains("deleted");

        given().auth().preemptive().basic(alice, PackingUsers.PASSWORD).get("/v1/sessions/{id}", id).then()
                .statusCode(404);
        given().auth().preemptive().basic(alice, PackingUsers.PASSWORD).get("/v1/sessions/{id}/steps/3/trace", id)
                .then().statusCode(404);
    }

    @Test
    void mnemosProfileRoutesAreNotInTheBuild() {
        String alice = "alice-" + UUID.randomUUID();
        given().auth().preemptive().basic(alice, PackingUsers.PASSWORD).get("/v1/profile").then().statusCode(404);
        given().auth().preemptive().basic(alice, PackingUsers.PASSWORD).get("/v1/sessions").then().statusCode(200);
    }

    @Test
    void theProfileLayerIsLeftOutAndTheSessionLayerHasItsStandIns() {
        assertThat(Arc.container().select(PromotionService.class).isResolvable()).isFalse();
        assertThat(Arc.container().select(ProfileService.class).isResolvable()).isFalse();
        assertThat(Arc.container().select(SessionEnd.class).get()).isInstanceOf(SessionOnlyEnd.class);
        assertThat(Arc.container().select(EndedSessions.class).get()).isInstanceOf(NoEndedSessions.class);
    }

    private static String post(String user, String sessionId, String step, String question) {
        return given().auth().preemptive().basic(user, PackingUsers.PASSWORD).contentType("text/plain").body(question)
                .post("/packing/{id}/{step}", sessionId, step).then().statusCode(200).extract().asString();
    }
}
