package org.acme.trips;

import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * A secured application whose endpoint answers on another thread than the request's: a step that cannot tell who it
 * acts for is refused before anything is read, whoever's session id it carries; context propagation and a named actor
 * keep working.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
@TestProfile(MnemosRestEnabledTest.RestEnabled.class)
class ThreadHopOwnershipTest {

    @Inject
    SessionStore sessions;

    private String alice;
    private String bob;
    private String alicesSession;

    @BeforeEach
    void aliceHasASession() {
        alice = "alice-" + UUID.randomUUID();
        bob = "bob-" + UUID.randomUUID();
        alicesSession = "trip-" + UUID.randomUUID();
        given().auth().preemptive().basic(alice, BasicUsers.PASSWORD).contentType("text/plain")
                .body("I am allergic to peanuts; plan a day in Porto").post("/chat/{id}", alicesSession).then()
                .statusCode(200);
        assertThat(sessions.get(alicesSession).userId()).isEqualTo(alice);
    }

    @ParameterizedTest
    @ValueSource(strings = { "common-pool", "thread", "pool" })
    void bobsHopWithAlicesSessionIsRefusedBeforeTheModelIsCalled(String hop) {
        long version = sessions.get(alicesSession).version();
        int modelCalls = OpenAiStub.bodies().size();
        String question = "what is she allergic to? " + UUID.randomUUID();

        given().auth().preemptive().basic(bob, BasicUsers.PASSWORD).contentType("text/plain").body(question)
                .post("/hops/{id}/" + hop, alicesSession).then().statusCode(403)
                .body(containsString("ActingAs.user(userId)"));

        assertThat(OpenAiStub.bodies()).as("model calls").hasSize(modelCalls);
        assertThat(OpenAiStub.bodies()).noneMatch(body -> body.contains(question));
        assertThat(sessions.get(alicesSession).version()).as("alice's session").isEqualTo(version);
    }

    @ParameterizedTest
    @ValueSource(strings = { "common-pool", "thread", "pool" })
    void aHopThatWouldStartASessionIsRefusedAndStartsNone(String hop) {
        String fresh = "trip-" + UUID.randomUUID();
        given().auth().preemptive().basic(alice, BasicUsers.PASSWORD).contentType("text/plain").body("hello")
                .post("/hops/{id}/" + hop, fresh).then().statusCode(403);

        assertThatThrownBy(() -> sessions.get(fresh)).as("a session started by the refused call")
                .isInstanceOf(SessionNotFoundException.class);
    }

    @Test
    void alicesOwnHopWorksOnceItNamesHer() {
        long version = sessions.get(alicesSession).version();

        given().auth().preemptive().basic(alice, BasicUsers.PASSWORD).contentType("text/plain").body("and a second day?")
                .post("/hops/{id}/named", alicesSession).then().statusCode(200).body(equalTo(OpenAiStub.ANSWER));

        assertThat(sessions.get(alicesSession).version()).isEqualTo(version + 1);
    }

    @Test
    void bobNamingHimselfStillCannotReachAlicesSession() {
        long version = sessions.get(alicesSession).version();

        given().auth().preemptive().basic(bob, BasicUsers.PASSWORD).contentType("text/plain").body("her allergies?")
                .post("/hops/{id}/named", alicesSession).then().statusCode(404);

        assertThat(sessions.get(alicesSession).version()).isEqualTo(version);
    }

    @Test
    void theManagedExecutorCarriesTheRequestsIdentity() {
        long version = sessions.get(alicesSession).version();
        given().auth().preemptive().basic(bob, BasicUsers.PASSWORD).contentType("text/plain").body("her allergies?")
                .post("/hops/{id}/managed", alicesSession).then().statusCode(404);
        assertThat(sessions.get(alicesSession).version()).isEqualTo(version);

        given().auth().preemptive().basic(alice, BasicUsers.PASSWORD).contentType("text/plain").body("a third day?")
                .post("/hops/{id}/managed", alicesSession).then().statusCode(200);
        assertThat(sessions.get(alicesSession).version()).isEqualTo(version + 1);

        String bobsSession = "trip-" + UUID.randomUUID();
        given().auth().preemptive().basic(bob, BasicUsers.PASSWORD).contentType("text/plain").body("a day in Faro")
                .post("/hops/{id}/managed", bobsSession).then().statusCode(200);
        assertThat(sessions.get(bobsSession).userId()).as("owner of the session bob's hop started").isEqualTo(bob);
    }
}
