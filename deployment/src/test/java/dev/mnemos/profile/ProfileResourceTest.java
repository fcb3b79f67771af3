package dev.mnemos.profile;

import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.SqlRows;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

class ProfileResourceTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            // the server's setting: Mnemos' extraction, reconcile and summaries take their deterministic paths
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false")
            // the server's setting: an unknown field is refused (400 naming it), not dropped
            .overrideConfigKey("quarkus.jackson.fail-on-unknown-properties", "true"));

    @Inject
    AgroalDataSource db;

    @Inject
    ProfileInjectionSource source;

    private String alice;
    private String token;

    @BeforeEach
    void user() {
        alice = "alice-" + UUID.randomUUID();
        token = Tokens.user(alice);
    }

    static ValidatableResponse post(String token, String path, Object body) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body(body).post(path).then();
    }

    static long add(String token, String text) {
        return post(token, "/v1/profile/facts", Map.of("text", text)).statusCode(201)
                .extract().jsonPath().getLong("changes[0].factId");
    }

    @Test
    void addedFactIsServedAndAudited() {
        long id = add(token, "Works as a pediatric nurse");
        given().auth().oauth2(token).get("/v1/profile").then().statusCode(200)
                .body("userId", equalTo(alice))
                .body("facts", hasSize(1))
                .body("facts[0].id", equalTo((int) id))
                .body("facts[0].text", equalTo("Works as a pediatric nurse"))
                .body("facts[0].confidence", equalTo(1.0f));
        given().auth().oauth2(token).get("/v1/profile/history").then().statusCode(200)
                .body("events[0].action", equalTo("ADD"))
                .body("events[0].after", equalTo("Works as a pediatric nurse"))
                .body("events[0].actor", equalTo(alice));
    }

    @Test
    void slotContradictionSupersedesAndKeepsHistory() throws Exception {
        long chinese = add(token, "Reply in Chinese");
        post(token, "/v1/profile/facts", Map.of("text", "Reply in English")).statusCode(201)
                .body("changes[0].action", equalTo("UPDATE"))
                .body("changes[0].before", equalTo("Reply in Chinese"));
        given().auth().oauth2(token).get("/v1/profile").then()
                .body("facts", hasSize(1))
                .body("facts[0].slot", equalTo("output.language"))
                .body("facts[0].text", equalTo("Reply in English"));
        assertThat(rows("select status, valid_to is not null from profile_fact where id = ?", chinese))
                .containsExactly(List.of("SUPERSEDED", "t"));
    }

    @Test
    void correctingAFactSupersedesIt() throws Exception {
        long id = add(token, "Has two kids");
        given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("text", "Has three kids"))
                .put("/v1/profile/facts/" + id).then().statusCode(200)
                .body("changes[0].action", equalTo("UPDATE"))
                .body("facts[0].text", equalTo("Has three kids"));
        assertThat(rows("select status from profile_fact where id = ?", id)).containsExactly(List.of("SUPERSEDED"));
    }

    @Test
    void forgetRemovesTheTextFromEveryTable() throws Exception {
        String secret = "Lives at 12 Secret Lane " + UUID.randomUUID();
        long id = add(token, secret);
        post(token, "/v1/profile/facts", Map.of("text", secret)).statusCode(201); // a MERGE event repeating the text
        given().auth().oauth2(token).delete("/v1/profile/facts/" + id).then().statusCode(200)
                .body("changes[0].action", equalTo("FORGET"))
                .body("changes[0].before", nullValue());
        assertThat(count("select count(*) from profile_fact where text like ?", "%" + secret + "%")).isZero();
        assertThat(count("select count(*) from profile_event where before like ? or after like ? or reason like ?",
                "%" + secret + "%", "%" + secret + "%", "%" + secret + "%")).isZero();
        assertThat(count("select count(*) from profile_event where fact_id = " + id + " and action = 'FORGET'")).isEqualTo(1);
        given().auth().oauth2(token).get("/v1/profile").then().body("facts", hasSize(0));
    }

    @Test
    void forgettingASupersededFactRemovesItsTextFromTheEventThatReplacedIt() throws Exception {
        long chinese = add(token, "Reply in Chinese");
        post(token, "/v1/profile/facts", Map.of("text", "Reply in English")).statusCode(201)
                .body("changes[0].before", equalTo("Reply in Chinese"));
        given().auth().oauth2(token).delete("/v1/profile/facts/" + chinese).then().statusCode(200);
        assertThat(count("select count(*) from profile_event where user_id = ? and (before = ? or after = ?)",
                alice, "Reply in Chinese", "Reply in Chinese")).isZero();
        assertThat(count("select count(*) from profile_event where user_id = ? and after = ?", alice, "Reply in English"))
                .as("the text that is still held stays in the history").isPositive();
        given().auth().oauth2(token).get("/v1/profile").then().body("facts.text", equalTo(List.of("Reply in English")));
    }

    @Test
    void chineseAndMixedTextRoundTripsExactly() {
        String text = "以后用中文回答，但代码注释用 English 🙂 «quotes» \"double\" עברית\nsecond line";
        add(token, text);
        String served = given().auth().oauth2(token).get("/v1/profile").then().statusCode(200)
                .extract().jsonPath().getString("facts[0].text");
        assertThat(served).isEqualTo(text);
    }

    @Test
    void directWriteBeyondTheCapIsRefusedAndWritesNothing() {
        for (int i = 0; i < 50; i++) {
            add(token, "fact number " + i);
        }
        post(token, "/v1/profile/facts", Map.of("text", "one too many")).statusCode(409)
                .contentType("application/problem+json")
                .body("detail", containsString("50"));
        given().auth().oauth2(token).get("/v1/profile").then().body("facts", hasSize(50));
    }

    @Test
    void automaticWriteBeyondTheCapEvictsTheWeakestAndAuditsIt() {
        post(token, "/v1/profile/facts", Map.of("text", "weak guess", "confidence", 0.2)).statusCode(201);
        for (int i = 0; i < 49; i++) {
            add(token, "fact number " + i);
        }
        post(token, "/v1/profile/instruct", Map.of("instruction", "remember I collect stamps")).statusCode(200);
        given().auth().oauth2(token).get("/v1/profile").then()
                .body("facts", hasSize(50))
                .body("facts.text", Matchers.hasItem("I collect stamps"))
                .body("facts.text", Matchers.not(Matchers.hasItem("weak guess")));
        given().auth().oauth2(token).get("/v1/profile/history").then()
                .body("events.find { it.before == 'weak guess' }.reason", containsString("evicted"));
    }

    @Test
    void overlongFactIsRefusedNamingTheField() {
        post(token, "/v1/profile/facts", Map.of("text", "x".repeat(281))).statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo("text"))
                .body("detail", containsString("280"));
        given().auth().oauth2(token).get("/v1/profile").then().body("facts", hasSize(0));
    }

    @Test
    void badInputAnswers4xxNamingTheField() {
        post(token, "/v1/profile/facts", Map.of("text", " ")).statusCode(400).body("field", equalTo("text"));
        post(token, "/v1/profile/facts", Map.of("text", "ok", "confidence", 1.5)).statusCode(400).body("field",
                equalTo("confidence"));
        post(token, "/v1/profile/facts", Map.of("text", "ok", "category", "NOPE")).statusCode(400).body("field",
                equalTo("category"));
        post(token, "/v1/profile/facts", Map.of("text", "ok", "slot", "Bad Slot!")).statusCode(400).body("field",
                equalTo("slot"));
        post(token, "/v1/profile/facts", Map.of("txt", "ok")).statusCode(400).body("field", equalTo("txt"));
        post(token, "/v1/profile/instruct", Map.of("instruction", "x".repeat(50_001))).statusCode(400).body("field",
                equalTo("instruction"));
        post(token, "/v1/profile/import", Map.of()).statusCode(400).body("field", equalTo("text"));
        given().auth().oauth2(token).contentType(ContentType.JSON).post("/v1/profile/instruct").then().statusCode(400);
        given().auth().oauth2(token).get("/v1/profile").then().body("facts", hasSize(0));
    }

    @Test
    void anotherUserCannotReadChangeOrForget() {
        long id = add(token, "Allergic to peanuts");
        String bob = Tokens.user("bob-" + UUID.randomUUID());
        given().auth().oauth2(bob).get("/v1/users/" + alice + "/profile").then().statusCode(404)
                .contentType("application/problem+json");
        given().auth().oauth2(bob).contentType(ContentType.JSON).body(Map.of("text", "Loves peanuts"))
                .put("/v1/profile/facts/" + id).then().statusCode(404);
        given().auth().oauth2(bob).delete("/v1/profile/facts/" + id).then().statusCode(404);
        given().auth().oauth2(bob).get("/v1/profile").then().body("facts", hasSize(0));
        given().auth().oauth2(token).get("/v1/profile").then().body("facts[0].text", equalTo("Allergic to peanuts"));
        given().when().get("/v1/profile").then().statusCode(401);
    }

    @Test
    void serviceMayReadAUsersProfile() {
        add(token, "Prefers metric units");
        given().auth().oauth2(Tokens.service("agent-backend")).get("/v1/users/" + alice + "/profile").then()
                .statusCode(200).body("facts[0].text", equalTo("Prefers metric units"));
    }

    @Test
    void offlineInstructRemembersForgetsAndRetires() {
        post(token, "/v1/profile/instruct", Map.of("instruction", "remember I live in Shanghai")).statusCode(200)
                .body("path", equalTo("DETERMINISTIC"))
                .body("facts[0].slot", equalTo("home.location"));
        post(token, "/v1/profile/instruct", Map.of("instruction", "remember that I like pizza")).statusCode(200);
        post(token, "/v1/profile/instruct", Map.of("instruction", "以后用中文回答")).statusCode(200)
                .body("facts.find { it.slot == 'output.language' }.text", equalTo("以后用中文回答"));
        post(token, "/v1/profile/instruct", Map.of("instruction", "I no longer like pizza")).statusCode(200)
                .body("changes[0].action", equalTo("UPDATE"))
                .body("changes[0].before", equalTo("I like pizza"))
                .body("changes[0].after", equalTo("I no longer like pizza"));
        post(token, "/v1/profile/instruct", Map.of("instruction", "forget where I live")).statusCode(200)
                .body("changes[0].action", equalTo("FORGET"));
        given().auth().oauth2(token).get("/v1/profile").then()
                .body("facts.text", equalTo(List.of("以后用中文回答", "I no longer like pizza")));
    }

    @Test
    void instructingAKnownFactTwiceKeepsOneFact() {
        post(token, "/v1/profile/instruct", Map.of("instruction", "remember I am vegetarian")).statusCode(200);
        post(token, "/v1/profile/instruct", Map.of("instruction", "Remember: I am vegetarian!")).statusCode(200)
                .body("changes[0].action", equalTo("MERGE"));
        given().auth().oauth2(token).get("/v1/profile").then().body("facts", hasSize(1));
    }

    @Test
    void offlineImportTakesOneFactPerLineAndSkipsDuplicates() {
        add(token, "Prefers concise answers");
        post(token, "/v1/profile/import", Map.of("text", "- Prefers concise answers\n- 住在杭州\n\n* Works in fintech\n"))
                .statusCode(200).body("path", equalTo("DETERMINISTIC"));
        given().auth().oauth2(token).get("/v1/profile").then()
                .body("facts.text", equalTo(List.of("Prefers concise answers", "住在杭州", "Works in fintech")));
    }

    @Test
    void readAfterWriteIsNeverStale() {
        add(token, "Drinks green tea");
        given().auth().oauth2(token).get("/v1/profile").then().body("facts", hasSize(1));
        add(token, "Runs marathons");
        given().auth().oauth2(token).get("/v1/profile").then().body("facts", hasSize(2));
    }

    @Test
    void writeByAnotherInstanceIsSeenThroughTheRevision() throws Exception {
        add(token, "Drinks green tea");
        given().auth().oauth2(token).get("/v1/profile").then().body("facts", hasSize(1));
        try (Connection c = db.getConnection()) {
            c.createStatement().executeUpdate("insert into profile_fact (user_id, category, text, confidence, source_kind,"
                    + " status, valid_from, created_at, updated_at) values ('" + alice + "', 'FACT', 'Written elsewhere', 1,"
                    + " 'USER_STATEMENT', 'ACTIVE', now(), now(), now())");
            c.createStatement()
                    .executeUpdate("update profile_owner set revision = revision + 1 where user_id = '" + alice + "'");
        }
        given().auth().oauth2(token).get("/v1/profile").then().body("facts.text",
                equalTo(List.of("Drinks green tea", "Written elsewhere")));
    }

    @Test
    void closedTaskNeverComesBackAsOpen() {
        long id = post(token, "/v1/profile/facts", Map.of("text", "Quarterly tax filing", "slot", "task.tax-filing",
                "taskState", "DONE")).statusCode(201).extract().jsonPath().getLong("changes[0].factId");
        given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Map.of("text", "Quarterly tax filing for 2026", "slot", "task.tax-filing", "taskState", "OPEN"))
                .put("/v1/profile/facts/" + id).then().statusCode(200)
                .body("facts[0].text", equalTo("Quarterly tax filing for 2026"))
                .body("facts[0].taskState", equalTo("DONE"));
    }

    @Test
    void anOverlongRememberIsRefusedAsAnOverlongFactIs() {
        String longFact = "I keep a reading log of " + "many books and essays, ".repeat(20);
        post(token, "/v1/profile/instruct", Map.of("instruction", "remember " + longFact)).statusCode(400)
                .contentType("application/problem+json").body(containsString("instruction"));
        given().auth().oauth2(token).get("/v1/profile").then().statusCode(200).body("facts", hasSize(0));
    }

    @Test
    void interceptorSourceServesCachedFactsAndSeesEveryWrite() {
        add(token, "Drinks green tea");
        ProfileSnapshot first = source.load(alice);
        assertThat(first.facts()).extracting(ProfileLine::text).containsExactly("Drinks green tea");
        assertThat(source.load(alice).cache()).isEqualTo(ProfileSnapshot.Cache.HIT);
        add(token, "Runs marathons");
        ProfileSnapshot after = source.load(alice);
        assertThat(after.facts()).extracting(ProfileLine::text).containsExactly("Drinks green tea", "Runs marathons");
        assertThat(source.load("nobody-" + UUID.randomUUID()).facts()).isEmpty();
    }

    private long count(String sql, Object... params) throws Exception {
        return SqlRows.count(db, sql, params);
    }

    private List<List<String>> rows(String sql, Object... params) throws Exception {
        return SqlRows.rows(db, sql, params);
    }
}
