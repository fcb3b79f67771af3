package dev.mnemos.profile;

import dev.mnemos.session.Idempotency;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.SqlRows;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/**
 * Profile writes with an Idempotency-Key, against the real Postgres: a repeat writes nothing and answers the first
 * write's changes; the same key with another request answers 422; a key is the user's own; concurrent requests with
 * one key apply once; a forget leaves no text (nor digest of one) in the records; an expired key is free again.
 */
class ProfileIdempotencyTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            // the server's setting: Mnemos' extraction, reconcile and summaries take their deterministic paths
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false"));

    private static final String KEY = "Idempotency-Key";

    @Inject
    AgroalDataSource db;

    private String alice;
    private String token;

    @BeforeEach
    void user() {
        alice = "idem-" + UUID.randomUUID();
        token = Tokens.user(alice);
    }

    private RequestSpecification as(String key) {
        RequestSpecification spec = given().auth().oauth2(token).contentType(ContentType.JSON);
        return key == null ? spec : spec.header(KEY, key);
    }

    private ExtractableResponse<Response> add(String key, String text, int status) {
        return as(key).body(Map.of("text", text)).post("/v1/profile/facts").then().statusCode(status).extract();
    }

    @Test
    void repeatedAddWritesOnceAndAnswersTheFirstChanges() throws Exception {
        ExtractableResponse<Response> first = add("add-1", "Keeps bees", 201);
        ExtractableResponse<Response> again = add("add-1", "Keeps bees", 201);

        assertThat(again.jsonPath().getList("changes")).isEqualTo(first.jsonPath().getList("changes"));
        assertThat(first.jsonPath().getString("changes[0].action")).isEqualTo("ADD");
        assertThat(first.jsonPath().getLong("changes[0].eventId")).isPositive();
        assertThat(again.jsonPath().getList("facts.text")).containsExactly("Keeps bees");
        assertThat(rows("select action from profile_event where user_id = ?", alice)).containsExactly(List.of("ADD"));
        assertThat(rows("select evidence_count from profile_fact where user_id = ?", alice)).containsExactly(List.of("1"));
        assertThat(rows("select count(*) from profile_request where user_id = ?", alice)).containsExactly(List.of("1"));

        // the same request without a key is a second write: the duplicate counts as more evidence
        assertThat(add(null, "Keeps bees", 201).jsonPath().getString("changes[0].action")).isEqualTo("MERGE");
        assertThat(rows("select evidence_count from profile_fact where user_id = ?", alice)).containsExactly(List.of("2"));
    }

    @Test
    void sameKeyWithAnotherRequestAnswers422AndWritesNothing() throws Exception {
        add("k", "Speaks Dutch", 201);
        as("k").body(Map.of("text", "Speaks Danish")).post("/v1/profile/facts").then().statusCode(422)
                .contentType("application/problem+json")
                .body("field", equalTo(KEY))
                .body("detail", containsString("different request"));
        // another operation under the same key is another request too
        as("k").body(Map.of("instruction", "remember I speak Dutch")).post("/v1/profile/instruct").then()
                .statusCode(422).body("field", equalTo(KEY));
        given().auth().oauth2(token).get("/v1/profile").then().body("facts.text", equalTo(List.of("Speaks Dutch")));
        assertThat(rows("select count(*) from profile_event where user_id = ?", alice)).containsExactly(List.of("1"));
    }

    @Test
    void aKeyIsTheUsersOwn() {
        add("shared-key", "Cycles to work", 201);
        String bob = "idem-bob-" + UUID.randomUUID();
        given().auth().oauth2(Tokens.user(bob)).contentType(ContentType.JSON).header(KEY, "shared-key")
                .body(Map.of("text", "Drives to work")).post("/v1/profile/facts").then().statusCode(201)
                .body("changes[0].action", equalTo("ADD"));
        given().auth().oauth2(Tokens.user(bob)).get("/v1/profile").then()
                .body("facts.text", equalTo(List.of("Drives to work")));
        given().auth().oauth2(token).get("/v1/profile").then().body("facts.text", equalTo(List.of("Cycles to work")));
    }

    @Test
    void repeatedCorrectAndForgetAnswerTheirFirstChanges() throws Exception {
        long id = add(null, "Lives in Lyon", 201).jsonPath().getLong("changes[0].factId");
        List<Object> corrected = as("fix").body(Map.of("text", "Lives in Lille")).put("/v1/profile/facts/{id}", id).then()
                .statusCode(200).body("changes[0].action", equalTo("UPDATE")).extract().jsonPath().getList("changes");
        // without the key the repeat would be a 404: the corrected fact is no longer active
        as("fix").body(Map.of("text", "Lives in Lille")).put("/v1/profile/facts/{id}", id).then().statusCode(200)
                .body("changes", equalTo(corrected));
        long lille = given().auth().oauth2(token).get("/v1/profile").then().body("facts", hasSize(1)).extract()
                .jsonPath().getLong("facts[0].id");

        List<Object> forgotten = as("drop").delete("/v1/profile/facts/{id}", lille).then().statusCode(200)
                .body("changes[0].action", equalTo("FORGET")).extract().jsonPath().getList("changes");
        as("drop").delete("/v1/profile/facts/{id}", lille).then().statusCode(200).body("changes", equalTo(forgotten))
                .body("facts", hasSize(0));
        as(null).delete("/v1/profile/facts/{id}", lille).then().statusCode(404);
        // the forget takes the fact's earlier version (Lyon) with it
        assertThat(rows("select action from profile_event where user_id = ? order by id", alice))
                .containsExactly(List.of("ADD"), List.of("UPDATE"), List.of("FORGET"), List.of("FORGET"));
    }

    @Test
    void concurrentRequestsWithOneKeyApplyOnce() throws Exception {
        int clients = 8;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ExtractableResponse<Response>>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return add("race", "Plays the cello", 201);
                }));
            }
            start.countDown();
            List<List<Object>> changes = new ArrayList<>();
            for (Future<ExtractableResponse<Response>> answer : answers) {
                changes.add(answer.get(60, TimeUnit.SECONDS).jsonPath().getList("changes"));
            }
            assertThat(changes).hasSize(clients).allSatisfy(c -> assertThat(c).isEqualTo(changes.get(0)));
        } finally {
            pool.shutdownNow();
        }
        assertThat(rows("select action from profile_event where user_id = ?", alice)).containsExactly(List.of("ADD"));
        assertThat(rows("select evidence_count from profile_fact where user_id = ?", alice)).containsExactly(List.of("1"));
    }

    @Test
    void repeatedInstructAndImportWriteOnce() throws Exception {
        for (int i = 0; i < 2; i++) {
            as("jazz").body(Map.of("instruction", "remember I like jazz")).post("/v1/profile/instruct").then()
                    .statusCode(200).body("path", equalTo("DETERMINISTIC")).body("changes", hasSize(1));
            as("export").body(Map.of("text", "- Vegetarian\n- Owns a cat")).post("/v1/profile/import").then()
                    .statusCode(200).body("changes", hasSize(2));
        }
        assertThat(rows("select count(*) from profile_event where user_id = ?", alice)).containsExactly(List.of("3"));
        assertThat(rows("select evidence_count from profile_fact where user_id = ? order by id", alice))
                .containsExactly(List.of("1"), List.of("1"), List.of("1"));
    }

    @Test
    void aForgetLeavesNoTextNorDigestOfOneInTheRecords() throws Exception {
        long id = add("paris", "Lives in Paris", 201).jsonPath().getLong("changes[0].factId");
        as(null).delete("/v1/profile/facts/{id}", id).then().statusCode(200);

        // the repeat answers the first write's change as the audit trail holds it now: without the text
        add("paris", "Lives in Paris", 201).response().then().body("changes[0].action", equalTo("ADD"))
                .body("changes[0].after", nullValue()).body("facts", hasSize(0));
        // with the digest gone the key is spent: any request with it answers its record, and writes nothing
        add("paris", "Lives in Rome", 201).response().then().body("changes[0].after", nullValue());
        assertThat(rows("select fingerprint is null from profile_request where user_id = ?", alice))
                .containsExactly(List.of("t"));
        assertThat(rows("select count(*) from profile_fact where user_id = ?", alice)).containsExactly(List.of("0"));
        // an instruction that forgets is recorded without its digest (it may quote the text)
        as(null).body(Map.of("instruction", "remember I live in Oslo")).post("/v1/profile/instruct").then().statusCode(200);
        as("forget-oslo").body(Map.of("instruction", "forget where I live")).post("/v1/profile/instruct").then()
                .statusCode(200).body("changes[0].action", equalTo("FORGET"));
        assertThat(rows("select fingerprint is null from profile_request where user_id = ? and idem_key = ?", alice,
                "forget-oslo")).containsExactly(List.of("t"));
    }

    @Test
    void anExpiredKeyIsFreeAgain() throws Exception {
        add("old", "Reads sci-fi", 201);
        try (var c = db.getConnection();
                var s = c.prepareStatement(
                        "update profile_request set created_at = now() - interval '25 hours' where user_id = ?")) {
            s.setString(1, alice);
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
        // past quarkus.mnemos.profile.idempotency-ttl (24 h) the key is a new request: written again (as more evidence)
        add("old", "Reads sci-fi", 201).response().then().body("changes[0].action", equalTo("MERGE"));
        assertThat(rows("select evidence_count from profile_fact where user_id = ?", alice)).containsExactly(List.of("2"));
        assertThat(rows("select count(*), bool_and(created_at > now() - interval '1 hour') from profile_request "
                + "where user_id = ?", alice)).containsExactly(List.of("1", "t"));
    }

    @Test
    void aMalformedKeyAnswers400NamingTheHeaderAndWritesNothing() throws Exception {
        add("has space", "Likes tea", 400).response().then().contentType("application/problem+json")
                .body("field", equalTo(KEY));
        add("x".repeat(256), "Likes tea", 400).response().then().body("field", equalTo(KEY));
        assertThat(rows("select count(*) from profile_event where user_id = ?", alice)).containsExactly(List.of("0"));
    }

    private List<List<String>> rows(String sql, Object... params) throws Exception {
        return SqlRows.rows(db, sql, params);
    }
}
