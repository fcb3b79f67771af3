package org.acme.trips;

import dev.mnemos.profile.NewFact;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/** The trip planner as built with Mnemos' defaults: no Mnemos settings, no REST API of Mnemos. */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
class TripPlannerTest {

    @Inject
    TripPlanner planner;
    @Inject
    SessionStore sessions;
    @Inject
    ProfileService profiles;
    @Inject
    AgroalDataSource dataSource;

    private static String freshId() {
        return "trip-" + UUID.randomUUID();
    }

    @Test
    void secondCallsPromptCarriesWhatTheFirstStepWrote() {
        String id = freshId();
        int before = OpenAiStub.bodies().size();

        assertThat(planner.suggest(id, "A weekend in Lisbon, no flights")).isEqualTo(OpenAiStub.ANSWER);
        SessionState afterFirst = sessions.get(id);
        assertThat(afterFirst.version()).isEqualTo(2);
        assertThat(afterFirst.collected()).containsEntry("answer.suggest", OpenAiStub.ANSWER);

        planner.suggest(id, "And on Sunday?");
        assertThat(sessions.get(id).version()).isEqualTo(3);

        List<String> bodies = Bodies.since(before);
        assertThat(bodies).hasSize(2);
        String first = Bodies.system(bodies.get(0));
        String second = Bodies.system(bodies.get(1));
        assertThat(first).startsWith("You are a travel planner.").contains("<memory-data", "version 1")
                .doesNotContain("answer.suggest");
        // the block names the stored answer; its text reaches the prompt once, in the planner's own chat turn
        assertThat(second).contains("version 2", "\"answer.suggest\": (in the conversation above)")
                .doesNotContain(OpenAiStub.ANSWER);
        assertThat(bodies.get(1)).contains(OpenAiStub.ANSWER);
    }

    @Test
    void firstCallWithAFreshMemoryIdStartsTheSessionOwnedByAnonymous() {
        String id = freshId();
        planner.suggest(id, "Three days in Porto");
        SessionState session = sessions.get(id);
        assertThat(session.sessionId()).isEqualTo(id);
        assertThat(session.userId()).isEqualTo("anonymous");
        assertThat(sessions.owner(id)).isEqualTo("anonymous");
    }

    @Test
    void theUsersPostgresProfileReachesThePrompt() {
        String user = "traveller-" + UUID.randomUUID();
        profiles.add(user, "test", new NewFact(null, null, "Prefers trains over planes", null));
        String id = sessions.create(NewSession.of(user, SessionPatch.builder().goal("Four days in Madrid").build()).by("test"))
                .sessionId();
        int before = OpenAiStub.bodies().size();

        planner.suggest(id, "How do I get there?");

        String system = Bodies.system(Bodies.since(before).get(0));
        assertThat(system).contains("\"Four days in Madrid\"", "\"Prefers trains over planes\"");
    }

    @Test
    void appsOwnEndpointStartsTheTripsSession() {
        given().contentType(ContentType.TEXT).body("What should I see first?").post("/trips/lisbon/questions")
                .then().statusCode(200).body(equalTo(OpenAiStub.ANSWER));
        assertThat(sessions.get("trip-lisbon").collected()).containsEntry("answer.suggest", OpenAiStub.ANSWER);
    }

    @Test
    void mnemosRestApiIsNotMountedAndTheAppsOwnErrorsKeepTheirShape() {
        String id = sessions.create(NewSession.of("someone-" + UUID.randomUUID(), SessionPatch.builder().build()).by("test"))
                .sessionId();
        given().get("/v1/sessions/x").then().statusCode(404);
        given().get("/v1/sessions/{id}", id).then().statusCode(404);
        given().get("/mnemos/inspector/index.html").then().statusCode(404); // the inspector comes with the API only

        given().get("/trips/lisbon").then().statusCode(200).body("title", equalTo("A weekend in Lisbon"));
        given().get("/trips/unknown").then().statusCode(404)
                .header("Content-Type", not(startsWith("application/problem+json")));
    }

    /** The versions of Mnemos' own migration scripts (runtime's {@code db/mnemos/V<n>__*.sql}), in order. */
    private static List<String> mnemosMigrationVersions() throws IOException {
        try (Stream<Path> scripts = Files.list(Path.of("..", "runtime", "src", "main", "resources", "db", "mnemos"))) {
            return scripts.map(script -> script.getFileName().toString()).filter(name -> name.matches("V\\d+__.*\\.sql"))
                    .map(name -> Integer.parseInt(name.substring(1, name.indexOf("__")))).sorted().map(String::valueOf)
                    .toList();
        }
    }

    @Test
    void appsFlywayAndMnemosMigrationsLiveSideBySideInTheAppsSchema() throws SQLException, IOException {
        assertThat(rows("select table_name from information_schema.tables where table_schema = 'consumer_app'"))
                .contains("trip", "flyway_schema_history", "mnemos_schema_history");
        assertThat(
                rows("select version || ':' || script from consumer_app.flyway_schema_history where success and type = 'SQL'"))
                .containsExactly("1:db/migration/V1__trips.sql");
        assertThat(rows(
                "select version from consumer_app.mnemos_schema_history where success and type = 'SQL' order by installed_rank"))
                .containsExactlyElementsOf(mnemosMigrationVersions());
        // Mnemos' tables are in the application's schema, next to its own
        assertThat(rows(
                "select count(*) from information_schema.tables where table_schema = 'consumer_app' and table_name = 'session_archive'"))
                .containsExactly("1");
        assertThat(rows("select title from consumer_app.trip where id = 'lisbon'")).containsExactly("A weekend in Lisbon");
    }

    private List<String> rows(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            List<String> values = new ArrayList<>();
            while (r.next()) {
                values.add(r.getString(1));
            }
            return values;
        }
    }
}
