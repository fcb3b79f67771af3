package dev.mnemos.erasure;

import dev.langchain4j.data.message.UserMessage;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.chat.RedisChatMemoryStore;
import dev.mnemos.promotion.TestRedisServer;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Holdings;
import io.agroal.api.AgroalDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Forget leaves no copy: after a forget, a scan of every row of every Mnemos table and of every value of every Redis
 * key of the user's sessions finds the forgotten text, its earlier versions, its rewordings and the evidence beside
 * them 0 times, while the sessions keep their versions and their compare-and-set. It reaches a live session's current
 * state also where the text is a field's name, not its value: an open question and a collected entry's key; the
 * session's state does not show it, and its archive and the export do not hold it once it ends.
 */
class ForgetLeavesNoCopyTest {

    /**
     * A Redis of the class's own: its checks scan every key of the whole Redis for the forgotten text, and the machine's
     * shared Redis holds every other test's (and build's) keys.
     */
    static final TestRedisServer REDIS = new TestRedisServer();

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings()
            .overrideConfigKey("quarkus.http.test-timeout", "120s")
            .setBeforeAllCustomizer(() -> REDIS.start().forEach(ForgetLeavesNoCopyTest.APP::overrideConfigKey))
            .setAfterAllCustomizer(REDIS::stop), jar -> jar.addClass(TestRedisServer.class));

    @Inject
    AgroalDataSource db;
    @Inject
    RedisDataSource redis;
    @Inject
    RedisChatMemoryStore chats;
    @Inject
    SessionStore store;
    @Inject
    StepTraceStore traces;

    private String alice;
    /** Makes each test's texts its own: the scans read all of Redis and whole tables, other tests' data too. */
    private String tag;

    @BeforeEach
    void user() {
        alice = "alice-" + UUID.randomUUID();
        tag = "x" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void aCorrectedFactGoesWithItsEarlierVersions() throws Exception {
        String first = "My favourite tea is Earl Grey " + tag;
        String second = "My favourite tea is Darjeeling " + tag;
        long id = as(alice).body(Map.of("text", first)).post("/v1/profile/facts").then().statusCode(201).extract()
                .jsonPath().getLong("changes[0].factId");
        long corrected = as(alice).body(Map.of("text", second)).put("/v1/profile/facts/{id}", id).then().statusCode(200)
                .extract().jsonPath().getLong("changes[0].factId");

        as(alice).delete("/v1/profile/facts/{id}", corrected).then().statusCode(200);

        assertThat(Holdings.dbHits(db, first)).as("the earlier version, in the database").isEmpty();
        assertThat(Holdings.dbHits(db, second)).as("the forgotten text, in the database").isEmpty();
        String history = as(alice).get("/v1/profile/history").then().statusCode(200).extract().asString();
        assertThat(history).doesNotContain(tag);
        assertThat(JsonPath.from(history).getList("events.action", String.class)).contains("FORGET");
    }

    @Test
    void forgetReachesARejectedCandidateAndTheEvidenceInTheArchive() throws Exception {
        String text = "I like window seats on trains " + tag;
        String evidence = "I booked seat " + tag + " by the window last time";
        String session = start(alice);
        observe(alice, session, text, evidence, false);
        JsonPath report = end(alice, session);
        assertThat(report.getList("pending.text", String.class)).as(report.prettify()).containsExactly(text);
        long candidate = as(alice).get("/v1/profile/pending").then().statusCode(200).extract().jsonPath().getLong("[0].id");
        as(alice).post("/v1/profile/pending/{id}/reject", candidate).then().statusCode(200);
        assertThat(Holdings.dbHits(db, text)).as("the rejected candidate and the archive hold it").isNotEmpty();

        as(alice).body(Map.of("instruction", "forget window seats on trains " + tag)).post("/v1/profile/instruct").then()
                .statusCode(200);

        assertThat(Holdings.dbHits(db, text)).as("the candidate's text, in the database").isEmpty();
        assertThat(Holdings.dbHits(db, evidence)).as("the observation's evidence, in the database").isEmpty();
        assertThat(as(alice).get("/v1/sessions/{id}/report", session).then().statusCode(200).extract().asString())
                .doesNotContain(tag);
    }

    @Test
    void forgetScrubsEveryKeyOfTheUsersLiveSessionsAndKeepsTheirVersions() throws Exception {
        String captain = "From now on call me Captain " + tag;
        String evidence = "The crew of the " + tag + " calls me that";
        String rewording = "Please call me Captain " + tag + " from now on";
        long fact = as(alice).body(Map.of("text", captain)).post("/v1/profile/facts").then().statusCode(201).extract()
                .jsonPath().getLong("changes[0].factId");
        String live = start(alice);
        observe(alice, live, captain, evidence, false);
        as(alice).header("Idempotency-Key", "k-" + tag).body(Map.of("text", rewording, "evidence", evidence))
                .post("/v1/sessions/{id}/observations", live).then().statusCode(200);
        for (int i = 0; i < 25; i++) {
            observe(alice, live, "Note " + i, null, false);
        }
        // a field that held the text and changed since: its undo record (in the snap hash) keeps the old value
        as(alice).body(Map.of("expectedVersion", version(live), "patch", Map.of("goal", captain)))
                .post("/v1/sessions/{id}/steps", live).then().statusCode(200);
        as(alice).body(Map.of("expectedVersion", version(live), "patch", Map.of("goal", "a sailing trip")))
                .post("/v1/sessions/{id}/steps", live).then().statusCode(200);
        chats.updateMessages(new RedisChatMemoryStore.Window(live, "trip"),
                List.of(UserMessage.from("Hi! " + captain + ". " + evidence)));
        long traced = version(live) + 1;
        store.apply(StepWrite.of(live, SessionPatch.builder().putCollected("answer", "ok").build()).ownedBy(alice)
                .expecting(traced - 1).noting("step").by("test")
                .traced(traces.entry(new StepTrace(live, alice, traced, "chat", "TripAi.chat", Instant.now(),
                        new StepTrace.Read(traced - 1, ProfileSnapshot.Status.LOADED, ProfileSnapshot.Cache.HIT, 1),
                        new StepTrace.Injected("abc", 10, 3, 1000, false, List.of(), List.of(captain), List.of(),
                                "<memory-data>\n- " + captain + "\n</memory-data>"),
                        new StepTrace.Written(traced - 1, traced, 0, List.of("collected")),
                        new StepTrace.Timings(1, 2, 3, 4)))));
        String other = start(alice);
        observe(alice, other, rewording, null, true);
        List<String> sessions = List.of(live, other);
        assertThat(Holdings.redisHits(redis, sessions, captain)).as("before the forget").containsKeys(
                SessionKeys.state(live), SessionKeys.snapshots(live), SessionKeys.events(live), SessionKeys.chat(live),
                SessionKeys.trace(live));
        long version = version(live);

        as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);

        assertThat(Holdings.redisHits(redis, sessions, captain)).as("the text, in Redis").isEmpty();
        assertThat(Holdings.redisHits(redis, sessions, evidence)).as("its evidence, in Redis").isEmpty();
        assertThat(Holdings.redisHits(redis, sessions, rewording)).as("its rewording, in Redis").isEmpty();
        assertThat(Holdings.dbHits(db, captain)).as("the text, in the database").isEmpty();
        assertThat(version(live)).as("a scrub is no new version").isEqualTo(version);
        as(alice).get("/v1/sessions/{id}/versions/{v}", live, 25).then().statusCode(200);
        as(alice).body(Map.of("expectedVersion", version, "patch", Map.of("goal", "sail")))
                .post("/v1/sessions/{id}/steps", live).then().statusCode(200);
        assertThat(version(live)).isEqualTo(version + 1);
        assertThat(as(alice).get("/v1/sessions/{id}/events?limit=100", live).then().statusCode(200).extract().asString())
                .doesNotContain(tag);
    }

    @Test
    void anOpenQuestionAndACollectedKeyAreBlankedInTheCurrentState() throws Exception {
        String text = "I am allergic to peanuts " + tag;
        String other = "Should we book the night train " + tag + "?";
        long fact = as(alice).body(Map.of("text", text)).post("/v1/profile/facts").then().statusCode(201).extract()
                .jsonPath().getLong("changes[0].factId");
        String session = start(alice);
        observe(alice, session, text, null, true);
        as(alice).body(Map.of("expectedVersion", version(session), "patch", Map.of(
                "context", "Planning for someone who said: " + text,
                "addOpenQuestions", List.of(text, other),
                "putCollected", Map.of(text, "noted", "diet", text))))
                .post("/v1/sessions/{id}/steps", session).then().statusCode(200);
        assertThat(Holdings.redisHitsAnywhere(redis, text)).as("before the forget").isNotEmpty();
        long version = version(session);

        as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);

        assertThat(Holdings.redisHitsAnywhere(redis, text)).as("the text, in any Redis key's name or value").isEmpty();
        assertThat(Holdings.dbHits(db, text)).as("the text, in the database").isEmpty();
        String state = as(alice).get("/v1/sessions/{id}", session).then().statusCode(200).extract().asString();
        assertThat(state).doesNotContain(text).contains(other).contains(ForgottenCopies.FORGOTTEN);
        assertThat(version(session)).as("a scrub is no new version").isEqualTo(version);
        for (long v = 1; v <= version; v++) {
            assertThat(as(alice).get("/v1/sessions/{id}/versions/{v}", session, v).then().statusCode(200).extract()
                    .asString()).as("version %d", v).doesNotContain(text);
        }
        // the session still takes steps: the renamed question is answered like any other
        as(alice).body(Map.of("expectedVersion", version, "patch",
                Map.of("answerOpenQuestions", List.of(ForgottenCopies.FORGOTTEN))))
                .post("/v1/sessions/{id}/steps", session).then().statusCode(200);
        assertThat(as(alice).get("/v1/sessions/{id}", session).then().statusCode(200).extract().jsonPath()
                .getList("openQuestions", String.class)).containsExactly(other);

        end(alice, session);

        assertThat(Holdings.dbHits(db, text)).as("the text, in the archive or anywhere in the database").isEmpty();
        assertThat(Holdings.redisHitsAnywhere(redis, text)).as("the text, in Redis after the end").isEmpty();
        assertThat(as(alice).get("/v1/me/export").then().statusCode(200).extract().asString()).doesNotContain(text)
                .contains(other);
    }

    private long version(String session) {
        return as(alice).get("/v1/sessions/{id}", session).then().statusCode(200).extract().jsonPath().getLong("version");
    }
}
