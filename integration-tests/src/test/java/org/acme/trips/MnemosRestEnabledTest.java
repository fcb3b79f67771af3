package org.acme.trips;

import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.hamcrest.Matchers.startsWithIgnoringCase;

/**
 * The same application built with Mnemos' REST API switched on (a build-time property: the test
 * profile re-augments the application).
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
@TestProfile(MnemosRestEnabledTest.RestEnabled.class)
class MnemosRestEnabledTest {

    public static class RestEnabled implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // Mnemos' API is @Authenticated, so an application that mounts it has an authentication
            // mechanism: HTTP Basic with BasicUsers here. (With none at all, Quarkus answers 403, not 401,
            // to every secured route: there is no challenge it could send.)
            return Map.of("quarkus.mnemos.rest.enabled", "true", "quarkus.http.auth.basic", "true");
        }
    }

    @Inject
    SessionStore sessions;

    @Test
    void mnemosRoutesAreMountedAndSecuredWhileTheAppsOwnErrorsKeepTheirShape() {
        String owner = "traveller-" + UUID.randomUUID();
        String id = sessions
                .create(NewSession.of(owner, SessionPatch.builder().goal("Five days in Seville").build()).by("test"))
                .sessionId();

        given().get("/v1/sessions/{id}", id).then().statusCode(401).header("WWW-Authenticate", startsWithIgnoringCase("basic"));
        given().auth().preemptive().basic(owner, BasicUsers.PASSWORD).get("/v1/sessions/{id}", id).then()
                .statusCode(200).body("goal", equalTo("Five days in Seville"));
        given().auth().preemptive().basic("someone-else", BasicUsers.PASSWORD).get("/v1/sessions/{id}", id).then()
                .statusCode(404).contentType("application/problem+json");

        given().get("/trips/unknown").then().statusCode(404)
                .header("Content-Type", not(startsWith("application/problem+json")));
    }

    @Test
    void theSessionInspectorComesWithTheApi() {
        given().get("/mnemos/inspector/index.html").then().statusCode(200).contentType(startsWith("text/html"))
                .body(containsString("<meta name=\"mnemos-api-base\" content=\"../../\">"));
        given().get("/mnemos/inspector/inspector.js").then().statusCode(200);
    }

    @Test
    void stepTraceOfTheApiListsTheToolsTheStepRan() {
        String alice = "alice-" + UUID.randomUUID();
        String id = "chat-" + UUID.randomUUID();
        given().auth().preemptive().basic(alice, BasicUsers.PASSWORD).contentType("text/plain")
                .body("Sunny places? [city:Braga]").post("/chat/{id}/weather", id).then().statusCode(200);

        given().auth().preemptive().basic(alice, BasicUsers.PASSWORD).get("/v1/sessions/{id}/steps/2/trace", id).then()
                .statusCode(200).body("tools.size()", equalTo(1)).body("tools[0].tool", equalTo(OpenAiStub.TOOL))
                .body("tools[0].arguments", containsString("Braga")).body("tools[0].result", containsString("in Braga"))
                .body("tools[0].durationMicros", greaterThan(0));
    }

    @Test
    void anAnonymousCallerOfTheSecuredAppCannotReachAUsersSession() {
        String alice = "alice-" + UUID.randomUUID();
        String id = "chat-" + UUID.randomUUID();
        given().auth().preemptive().basic(alice, BasicUsers.PASSWORD).contentType("text/plain").body("Lisbon for three days")
                .post("/chat/{id}", id).then().statusCode(200);
        assertThat(sessions.owner(id)).isEqualTo(alice);
        long version = sessions.get(id).version();
        int prompts = OpenAiStub.bodies().size();

        given().contentType("text/plain").body("What did alice plan?").post("/chat/{id}", id).then()
                .statusCode(not(equalTo(200)));

        assertThat(sessions.get(id).version()).isEqualTo(version);
        assertThat(Bodies.since(prompts)).as("no prompt carried alice's memory").isEmpty();
        // the anonymous caller still has sessions of its own
        String own = "chat-" + UUID.randomUUID();
        given().contentType("text/plain").body("Porto?").post("/chat/{id}", own).then().statusCode(200);
        assertThat(sessions.owner(own)).isEqualTo("anonymous");
    }
}
