package dev.mnemos.erasure;

import dev.langchain4j.data.message.UserMessage;
import dev.mnemos.injection.chat.RedisChatMemoryStore;
import dev.mnemos.profile.ProfileRevisions;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Holdings;
import dev.mnemos.testsupport.SqlRows;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.service;
import static dev.mnemos.testsupport.Calls.start;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * Erasure of a user, by their own call or a service's, leaves 0 rows of theirs in every Mnemos table (found by the
 * {@code user_id} column, and by the id anywhere in any row) and 0 Redis keys of their sessions, their index or
 * their profile; another user's data stays. The export answers everything held about the user as JSON.
 */
class UserErasureTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            // the server's setting: Mnemos' extraction, reconcile and summaries take their deterministic paths
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false"));

    @Inject
    AgroalDataSource db;
    @Inject
    RedisDataSource redis;
    @Inject
    RedisChatMemoryStore chats;

    private String alice;
    private String bob;
    private String tag;

    @BeforeEach
    void users() {
        alice = "alice-" + UUID.randomUUID();
        bob = "bob-" + UUID.randomUUID();
        tag = "x" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** This class's application has the REST API and no key-encryption key: the operator's encryption calls do nothing. */
    @Test
    void withEncryptionOffTheOperatorsCallsAnswerConflictAndDoNothing() {
        given().auth().oauth2(Tokens.operator("ops")).get("/v1/encryption").then().statusCode(200)
                .body("encrypted", equalTo(false)).body("dataKeysToRewrap", equalTo(0));
        for (String call : List.of("/v1/encryption/seal", "/v1/encryption/rewrap")) {
            given().auth().oauth2(Tokens.operator("ops")).post(call).then().statusCode(409)
                    .contentType("application/problem+json")
                    .body("detail", containsString("quarkus.mnemos.encryption.key"));
        }
    }

    @Test
    void aUserErasesThemself() throws Exception {
        List<String> sessions = everything(alice, tag);
        everything(bob, "y" + UUID.randomUUID().toString().substring(0, 8));
        assertThat(Holdings.dbRows(db, alice)).containsKeys("profile_fact", "profile_event", "promotion_candidate",
                "session_archive", "profile_request", "profile_forgotten", "profile_owner");

        JsonPath erased = as(alice).delete("/v1/me").then().statusCode(200).extract().jsonPath();

        assertThat(erased.getInt("rows.profile_fact")).isPositive();
        assertThat(erased.getLong("redisKeys")).isPositive();
        assertErased(alice, sessions);
        assertThat(Holdings.dbRows(db, bob)).as("another user's rows").containsKeys("profile_fact", "session_archive");
        assertThat(as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath().getList("facts")).isEmpty();
        assertThat(SqlRows.rows(db, "select actor from user_erasure order by id desc limit 1").get(0).get(0))
                .isEqualTo("user");
        as(alice).delete("/v1/me").then().statusCode(200).body("redisKeys", equalTo(0));
    }

    @Test
    void aServiceErasesAUserAndAnotherUserCannot() throws Exception {
        List<String> sessions = everything(alice, tag);
        as(bob).delete("/v1/users/{u}", alice).then().statusCode(404);
        assertThat(Holdings.dbRows(db, alice)).isNotEmpty();

        service().delete("/v1/users/{u}", alice).then().statusCode(200);

        assertErased(alice, sessions);
        assertThat(SqlRows.rows(db, "select actor from user_erasure order by id desc limit 1").get(0).get(0))
                .isEqualTo("backend");
    }

    @Test
    void theExportHoldsEverythingHeld() throws Exception {
        List<String> sessions = everything(alice, tag);
        as(bob).get("/v1/users/{u}/export", alice).then().statusCode(404);

        for (JsonPath export : List.of(as(alice).get("/v1/me/export").then().statusCode(200).extract().jsonPath(),
                service().get("/v1/users/{u}/export", alice).then().statusCode(200).extract().jsonPath())) {
            assertThat(export.getString("userId")).isEqualTo(alice);
            for (String table : List.of("profile_fact", "profile_event", "promotion_candidate", "session_archive",
                    "profile_request", "profile_forgotten", "profile_owner")) {
                assertThat(export.getList("tables." + table)).as(table)
                        .hasSize((int) SqlRows.count(db, "select count(*) from " + table + " where user_id = ?", alice));
            }
            assertThat(export.getList("tables.profile_fact.status", String.class)).contains("ACTIVE", "SUPERSEDED");
            assertThat(export.getList("tables.profile_fact.text", String.class)).contains("Drinks green tea " + tag,
                    "Drinks black tea " + tag);
            assertThat(export.getString("tables.session_archive[0].final_state.userId")).isEqualTo(alice);
            assertThat(export.getList("liveSessions.sessionId", String.class)).containsExactly(sessions.get(1));
            Map<String, Object> keys = export.getMap("liveSessions[0].keys");
            assertThat(keys).containsKeys(SessionKeys.state(sessions.get(1)), SessionKeys.events(sessions.get(1)),
                    SessionKeys.chat(sessions.get(1)));
            assertThat(export.prettify()).contains("Sail to Bergen " + tag);
        }
    }

    private void assertErased(String user, List<String> sessions) throws Exception {
        assertThat(Holdings.dbRows(db, user)).as("rows with the user's id").isEmpty();
        assertThat(Holdings.dbHits(db, user)).as("rows naming the user anywhere").isEmpty();
        assertThat(Holdings.dbHits(db, tag)).as("rows holding the user's texts").isEmpty();
        List<String> keys = new ArrayList<>(Holdings.sessionKeys(redis, sessions));
        for (String key : List.of(SessionKeys.userSessions(user), ProfileRevisions.key(user))) {
            if (redis.key().exists(key)) {
                keys.add(key);
            }
        }
        assertThat(keys).as("Redis keys of the user").isEmpty();
        assertThat(sessions).as("sessions of the user in the index of unfinished ends")
                .noneMatch(id -> redis.sortedSet(String.class).zscore(SessionKeys.unfinishedEndsOf(id), id).isPresent());
    }

    /**
     * A user with something in every table and every key family: a corrected fact (with its superseded version), a
     * forgotten one (a tombstone), a keyed write (an idempotency record), an ended session (an archive and a
     * candidate), a live one with a chat window. Answers the sessions, ended first.
     */
    private List<String> everything(String user, String tag) {
        long tea = as(user).body(Map.of("text", "Drinks black tea " + tag)).post("/v1/profile/facts").then().statusCode(201)
                .extract().jsonPath().getLong("changes[0].factId");
        as(user).body(Map.of("text", "Drinks green tea " + tag)).put("/v1/profile/facts/{id}", tea).then().statusCode(200);
        long gone = as(user).header("Idempotency-Key", "k-" + tag).body(Map.of("text", "Owns a red kayak " + tag))
                .post("/v1/profile/facts").then().statusCode(201).extract().jsonPath().getLong("changes[0].factId");
        as(user).delete("/v1/profile/facts/{id}", gone).then().statusCode(200);
        String ended = start(user);
        observe(user, ended, "I like quiet hotels " + tag, "I said so " + tag, false);
        end(user, ended);
        String live = start(user);
        observe(user, live, "Sail to Bergen " + tag, null, true);
        chats.updateMessages(new RedisChatMemoryStore.Window(live, "trip"), List.of(UserMessage.from("Sail to Bergen " + tag)));
        return List.of(ended, live);
    }
}
