package org.acme.trips;

import dev.langchain4j.agentic.scope.AgenticScope;
import dev.mnemos.injection.ActingAs;
import dev.mnemos.injection.agentic.SessionAgenticScopeStore;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A workflow's session rolled back and forked through Mnemos' REST API, as the inspector does it: the workflow's next
 * call continues from the scope the rolled-back session holds, and a fork's calls from the fork's own.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
@TestProfile(MnemosRestEnabledTest.RestEnabled.class)
class AgenticWorkflowRestTest {

    private static final String SCOPE_KEY = SessionAgenticScopeStore.key(TripBreakdown.class.getName());

    @Inject
    TripBreakdown breakdown;
    @Inject
    SessionStore sessions;

    @Test
    void aWorkflowRolledBackAndForkedThroughTheApiGoesOnFromEachSessionsScope() {
        String owner = "traveller-" + UUID.randomUUID();
        String id = sessions.create(NewSession.of(owner, SessionPatch.builder().goal("A week in Madeira").build()).by("test"))
                .sessionId();
        // the test calls the workflow off any request, in an application that authenticates: it names its user
        ActingAs.user(owner).run(() -> breakdown.breakDown(id, "A week in Madeira"));
        List<Map<String, Object>> history = as(owner).get("/v1/sessions/{id}/versions", id).then().statusCode(200)
                .extract().jsonPath().getList("$");
        long afterDraft = versionNoted(history, "step draft") + 1;
        long latest = sessions.get(id).version();

        JsonPath rolledBack = as(owner).contentType(ContentType.JSON).body(Map.of("toVersion", afterDraft,
                "expectedVersion", latest)).post("/v1/sessions/{id}/rollback", id).then().statusCode(200)
                .extract().jsonPath();
        String forkId = as(owner).contentType(ContentType.JSON).body(Map.of("fromVersion", latest))
                .post("/v1/sessions/{id}/fork", id).then().statusCode(201).extract().path("sessionId");

        assertThat(rolledBack.getMap("collected")).containsKey("answer.draft").doesNotContainKey("answer.review");
        AgenticScope scope = ActingAs.user(owner).call(() -> breakdown.getAgenticScope(id));
        assertThat(scope.readState("draft", "")).isEqualTo(OpenAiStub.ANSWER);
        assertThat(scope.readState("review", "")).isEmpty();
        assertThat(ActingAs.user(owner).call(() -> breakdown.getAgenticScope(forkId)).readState("review", ""))
                .isEqualTo(OpenAiStub.ANSWER);

        ActingAs.user(owner).run(() -> breakdown.breakDown(id, "A week in Madeira, on foot"));
        ActingAs.user(owner).run(() -> breakdown.breakDown(forkId, "A week in Madeira, by bus"));

        assertThat(sessions.get(id).collected().get(SCOPE_KEY)).contains("on foot").doesNotContain("by bus");
        assertThat(sessions.get(forkId).collected().get(SCOPE_KEY)).contains("by bus", forkId).doesNotContain("on foot");
        JsonPath fork = as(owner).get("/v1/sessions/{id}", forkId).then().statusCode(200).extract().jsonPath();
        assertThat(fork.getString("userId")).isEqualTo(owner);
        assertThat(fork.getMap("collected")).containsKeys("answer.draft", "answer.review");
    }

    /** The version of the first entry of the history noted {@code note}. */
    private static long versionNoted(List<Map<String, Object>> history, String note) {
        return history.stream().filter(e -> note.equals(e.get("note"))).findFirst()
                .map(e -> ((Number) e.get("version")).longValue()).orElseThrow();
    }

    private static RequestSpecification as(String user) {
        return given().auth().preemptive().basic(user, BasicUsers.PASSWORD);
    }
}
