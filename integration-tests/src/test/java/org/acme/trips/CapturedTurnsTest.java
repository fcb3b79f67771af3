package org.acme.trips;

import dev.mnemos.session.Constraint;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Three turns through an AI service that has only {@code @SessionMemory}: the default capture gives the session a goal,
 * a task-scoped constraint and a standing statement, the next prompts carry them, and ending the session promotes the
 * standing statement and not the task-scoped one.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
@TestProfile(MnemosRestEnabledTest.RestEnabled.class)
class CapturedTurnsTest {

    private static final String GOAL = "I want a 3-day trip to Kyoto";
    private static final String BUDGET = "budget 5000 this time";
    private static final String FRENCH = "from now on always answer in French";

    @Inject
    SessionStore sessions;

    @Test
    void whatTheUserSaysReachesTheSessionAndTheStandingPartTheProfile() {
        String alice = "alice-" + UUID.randomUUID();
        String id = "advice-" + UUID.randomUUID();
        int before = OpenAiStub.bodies().size();

        say(alice, id, GOAL);
        say(alice, id, BUDGET);
        say(alice, id, FRENCH);
        say(alice, id, "Which temples first?");

        SessionState s = sessions.get(id);
        assertThat(s.goal()).isEqualTo(GOAL);
        assertThat(s.constraints()).extracting(Constraint::text, Constraint::scope)
                .containsExactly(tuple(BUDGET, Scope.TASK), tuple(FRENCH, Scope.STABLE));
        assertThat(s.observations()).extracting(Observation::text, Observation::scope)
                .containsExactly(tuple(FRENCH, Scope.STABLE));

        List<String> bodies = Bodies.since(before);
        assertThat(bodies).hasSize(4);
        assertThat(Bodies.system(bodies.get(0))).doesNotContain("goal:");
        assertThat(Bodies.system(bodies.get(2))).as("the third prompt")
                .contains("goal: \"" + GOAL + "\"", "- [TASK] \"" + BUDGET + "\"").doesNotContain("[STABLE]");
        assertThat(Bodies.system(bodies.get(3))).as("the fourth prompt")
                .contains("goal: \"" + GOAL + "\"", "- [TASK] \"" + BUDGET + "\"", "- [STABLE] \"" + FRENCH + "\"");

        JsonPath report = given().auth().preemptive().basic(alice, BasicUsers.PASSWORD).post("/v1/sessions/{id}/end", id)
                .then().statusCode(200).extract().jsonPath();
        assertThat(report.getList("promoted.text", String.class)).containsExactly(FRENCH);
        assertThat(report.getList("pending.text", String.class)).isEmpty();
        List<String> profile = given().auth().preemptive().basic(alice, BasicUsers.PASSWORD).get("/v1/profile").then()
                .statusCode(200).extract().jsonPath().getList("facts.text", String.class);
        assertThat(profile).anyMatch(f -> f.contains("French")).noneMatch(f -> f.contains("5000"));
    }

    private static void say(String user, String session, String message) {
        given().auth().preemptive().basic(user, BasicUsers.PASSWORD).contentType("text/plain").body(message)
                .post("/advice/{id}", session).then().statusCode(200);
    }
}
