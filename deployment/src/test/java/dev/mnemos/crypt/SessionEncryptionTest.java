package dev.mnemos.crypt;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.ToolRun;
import dev.mnemos.injection.chat.RedisChatMemoryStore;
import dev.mnemos.promotion.TestRedisServer;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Holdings;
import io.agroal.api.AgroalDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.path.json.JsonPath;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

/**
 * Encryption at rest of session memory in Redis (issue 50), on a {@code redis-server} of the class's own and the real
 * Postgres: after a realistic task no key of its sessions holds one of its words in plain text, live or after its end
 * (then no key of the whole Redis), while every read (state, versions, events, plans, rollback, fork, chat windows,
 * traces, the end's report) still answers them; a sealed value copied to another user's session does not open, and
 * says so; a plain value written before encryption was on reads as it is and is sealed at its next write.
 */
class SessionEncryptionTest {

    static final String SCHEMA = "mnemos_rcrypt_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";
    static final String KEY = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

    /**
     * A Redis of the class's own: the end's check scans every key of the whole Redis for the task's words, and the
     * machine's shared Redis holds every other test's (and build's) keys.
     */
    static final TestRedisServer REDIS = new TestRedisServer();

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings()
            // session memory in Redis is this test's subject: no embedding model to load (EncryptionAtRestTest has the
            // sealed embeddings in Postgres)
            .overrideConfigKey("quarkus.mnemos.profile.embeddings", "NONE")
            .overrideConfigKey("quarkus.datasource.jdbc.url", URL + "?currentSchema=" + SCHEMA)
            .overrideConfigKey("quarkus.mnemos.encryption.key", KEY)
            .setBeforeAllCustomizer(() -> REDIS.start().forEach(SessionEncryptionTest.APP::overrideConfigKey))
            .setAfterAllCustomizer(() -> {
                REDIS.stop();
                dropSchema();
            }), jar -> jar.addClasses(TestRedisServer.class, ClaimsReady.class, ThreadsThatUnwrap.class));

    @Inject
    RedisDataSource redis;
    @Inject
    AgroalDataSource db;
    @Inject
    SessionStore store;
    @Inject
    RedisChatMemoryStore chats;
    @Inject
    StepTraceStore traces;
    @Inject
    SealedSessionValues sealedValues;
    @Inject
    DataKeys dataKeys;

    private String alice;
    private String bob;
    private String tag;

    @BeforeEach
    void users() {
        alice = "alice-" + UUID.randomUUID();
        bob = "bob-" + UUID.randomUUID();
        tag = "q" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    @Test
    void noKeyOfATasksSessionsHoldsItsWordsAndEveryReadAnswersThem() throws Exception {
        String session = task(alice, tag);
        SessionState state = store.get(session);
        String fork = as(alice).body(Map.of("fromVersion", 4)).post("/v1/sessions/{id}/fork", session).then()
                .statusCode(201).extract().path("sessionId");
        List<String> sessions = List.of(session, fork);

        for (String word : words(tag)) {
            assertThat(Holdings.redisHits(redis, sessions, word)).as("live keys holding '%s'", word).isEmpty();
        }
        assertThat(Holdings.sessionKeys(redis, sessions)).contains(SessionKeys.state(session),
                SessionKeys.snapshots(session), SessionKeys.events(session), SessionKeys.chat(session),
                SessionKeys.trace(session), SessionKeys.plans(session), SessionKeys.idempotency(session));

        assertThat(state.goal()).isEqualTo("Sail to the Lofoten islands " + tag);
        assertThat(state.constraints()).extracting(c -> c.text()).containsExactly("No night crossings " + tag);
        assertThat(state.openQuestions()).containsExactly("Which harbour in Svolvaer " + tag);
        assertThat(state.collected()).containsEntry("boat", "A sloop named Albatross " + tag);
        assertThat(state.plans()).extracting(p -> p.content()).containsExactly("Day one Bodo to Reine " + tag,
                "Day one Bodo to Moskenes " + tag);
        assertThat(state.plans().get(0).feedback()).isEqualTo("Too windy for Reine " + tag);
        assertThat(state.observations()).extracting(o -> o.text()).contains("I get seasick in swell " + tag);
        assertThat(as(alice).get("/v1/sessions/{id}/versions/{v}", session, 3).then().statusCode(200).extract().jsonPath()
                .getString("context")).isEqualTo("Crew of two, June " + tag);
        assertThat(as(alice).get("/v1/sessions/{id}/events?limit=100", session).then().statusCode(200).extract()
                .asString()).contains("Day one Bodo to Reine " + tag, "No night crossings " + tag);
        assertThat(as(alice).get("/v1/sessions/{id}/plans", session).then().statusCode(200).extract().jsonPath()
                .getList("plans.content", String.class)).contains("Day one Bodo to Moskenes " + tag);
        assertThat(as(alice).get("/v1/sessions/{id}", fork).then().statusCode(200).extract().jsonPath()
                .getString("goal")).isEqualTo("Sail to the Lofoten islands " + tag);
        assertThat(chats.windows(session)).hasSize(1);
        assertThat(chats.windows(session).get(0).toString()).contains("Where do we anchor " + tag);
        assertThat(traces.all(session)).singleElement().satisfies(t -> {
            assertThat(t.tools()).extracting(ToolRun::result).containsExactly("Tide tables for Reine " + tag);
            assertThat(t.injected().block()).contains("Prefers calm anchorages " + tag);
        });
        String export = as(alice).get("/v1/me/export").then().statusCode(200).extract().asString();
        assertThat(export).contains("Sail to the Lofoten islands " + tag, "Day one Bodo to Reine " + tag,
                "Tide tables for Reine " + tag, "Where do we anchor " + tag).doesNotContain(MemoryCipher.DENSE_MARK);

        SessionState rolledBack = as(alice).body(Map.of("toVersion", 3)).post("/v1/sessions/{id}/rollback", session)
                .then().statusCode(200).extract().as(SessionState.class);
        assertThat(rolledBack.context()).isEqualTo("Crew of two, June " + tag);
        assertThat(store.get(session).context()).isEqualTo("Crew of two, June " + tag);
        for (String word : words(tag)) {
            assertThat(Holdings.redisHits(redis, sessions, word)).as("keys holding '%s' after the rollback", word)
                    .isEmpty();
        }
        // the rollback took the observations back: the end promotes one said again
        observe(alice, session, "I get seasick in swell " + tag, "I always get seasick in swell " + tag, true);

        JsonPath report = end(alice, session);
        assertThat(report.getList("promoted.text", String.class)).as(report.prettify()).contains(
                "I get seasick in swell " + tag);

        for (String word : words(tag)) {
            assertThat(Holdings.redisHitsAnywhere(redis, word)).as("Redis keys holding '%s' after the end", word).isEmpty();
            assertThat(Holdings.dbHits(db, word)).as("rows holding '%s' after the end", word).isEmpty();
        }
        assertThat(as(alice).get("/v1/sessions/{id}/report", session).then().statusCode(200).extract().asString())
                .contains(tag);
    }

    @Test
    void aSealedValueCopiedToAnotherUsersSessionDoesNotOpen() {
        String hers = start(alice, "Climb the Matterhorn " + tag);
        String his = start(bob, "Walk the dog " + tag);
        String sealed = redis.hash(String.class).hget(SessionKeys.state(hers), "goal");
        assertThat(sealed).startsWith(MemoryCipher.DENSE_MARK);

        redis.hash(String.class).hset(SessionKeys.state(his), "goal", sealed);

        assertThatThrownBy(() -> store.get(his)).isInstanceOf(SealedValueException.class)
                .hasMessage("a sealed value of redis.goal does not open: it was sealed for another user or place, or"
                        + " altered");
        as(bob).get("/v1/sessions/{id}", his).then().statusCode(500).contentType("application/problem+json")
                .body("title", equalTo("Stored memory does not open")).body("place", equalTo("redis.goal"));
        assertThat(store.get(hers).goal()).isEqualTo("Climb the Matterhorn " + tag);
    }

    /**
     * The values just read are remembered opened (a step reads them back each time): the memory holds a ciphertext at its
     * place only, so the goal moved to the context of the same session does not open either.
     */
    @Test
    void aSealedValueJustReadDoesNotOpenAtAnotherPlaceOfItsUsersSession() {
        String hers = start(alice, "Climb the Eiger " + tag);
        assertThat(store.get(hers).goal()).isEqualTo("Climb the Eiger " + tag);
        String sealed = redis.hash(String.class).hget(SessionKeys.state(hers), "goal");

        redis.hash(String.class).hset(SessionKeys.state(hers), "context", sealed);

        assertThatThrownBy(() -> store.get(hers)).isInstanceOf(SealedValueException.class)
                .hasMessage("a sealed value of redis.context does not open: it was sealed for another user or place, or"
                        + " altered");
        redis.hash(String.class).hdel(SessionKeys.state(hers), "context");
        assertThat(store.get(hers).goal()).isEqualTo("Climb the Eiger " + tag);
    }

    /**
     * The step write and the read of the current state run on the event loop when the owner's data key is in memory.
     * When it leaves memory between that check and the sealing (evicted from the bounded cache, or an erase; here the
     * check is told it is in memory, {@link ClaimsReady}), the key is read on a worker thread, never on the event loop.
     */
    @Test
    void aDataKeyThatLeftMemoryIsReadOnAWorkerThreadNeverOnTheEventLoop() {
        String session = start(alice, "Sail to Senja " + tag);
        dataKeys.evict(alice);
        ThreadsThatUnwrap.THREADS.clear();
        ClaimsReady.claiming = true;
        try {
            step(alice, session, Map.of("putCollected", Map.of("boat", "A ketch " + tag)));
            dataKeys.evict(alice);
            as(alice).get("/v1/sessions/{id}", session).then().statusCode(200)
                    .body("collected.boat", equalTo("A ketch " + tag)).body("goal", equalTo("Sail to Senja " + tag));
        } finally {
            ClaimsReady.claiming = false;
        }
        assertThat(ThreadsThatUnwrap.THREADS).as("threads that read the data key").hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(thread -> assertThat(thread).doesNotContain("eventloop"));
    }

    @Test
    void aPlainValueIsReadAsItIsAndSealedAtItsNextWrite() {
        String session = start(alice, "Paint the shed " + tag);
        redis.hash(String.class).hset(SessionKeys.state(session),
                Map.of("goal", "Paint the shed green " + tag, "k:colour", "Moss green " + tag, "q:Which brush " + tag,
                        "0.9|"));

        SessionState plain = store.get(session);
        assertThat(plain.goal()).isEqualTo("Paint the shed green " + tag);
        assertThat(plain.collected()).containsEntry("colour", "Moss green " + tag);
        assertThat(plain.openQuestions()).containsExactly("Which brush " + tag);

        as(alice).body(Map.of("patch", Map.of("goal", "Paint the shed blue " + tag, "putCollected",
                Map.of("colour", "Sky blue " + tag), "answerOpenQuestions", List.of("Which brush " + tag))))
                .post("/v1/sessions/{id}/steps", session).then().statusCode(200);

        Map<String, String> fields = redis.hash(String.class).hgetall(SessionKeys.state(session));
        assertThat(fields.get("goal")).startsWith(MemoryCipher.DENSE_MARK);
        assertThat(fields.get("k:colour")).startsWith(MemoryCipher.DENSE_MARK);
        assertThat(fields).doesNotContainKey("q:Which brush " + tag);
        SessionState sealed = store.get(session);
        assertThat(sealed.goal()).isEqualTo("Paint the shed blue " + tag);
        assertThat(sealed.collected()).containsEntry("colour", "Sky blue " + tag);
        assertThat(sealed.openQuestions()).isEmpty();
        assertThat(store.at(session, 1).goal()).as("the undo record holds the plain value").isEqualTo(
                "Paint the shed green " + tag);
    }

    /**
     * A forget blanks the text inside the sealed values of the user's live sessions: the state, the undo records and
     * checkpoints (past versions), the replay log, the chat windows, the traces; versions are kept.
     */
    @Test
    void forgetBlanksTheTextInsideSealedValuesOfLiveSessions() {
        String captain = "Call me Captain " + tag;
        long fact = as(alice).body(Map.of("text", captain)).post("/v1/profile/facts").then().statusCode(201).extract()
                .jsonPath().getLong("changes[0].factId");
        String live = start(alice, "Sail with " + captain);
        observe(alice, live, captain, "The crew says " + captain, false);
        for (int i = 0; i < 30; i++) {
            step(alice, live, Map.of("putCollected", Map.of("note" + i, "Note " + i)));
        }
        step(alice, live, Map.of("goal", "A sailing trip"));
        chats.updateMessages(new RedisChatMemoryStore.Window(live, "trip"), List.of(UserMessage.from("Hi, " + captain)));
        long version = store.get(live).version();
        assertThat(as(alice).get("/v1/sessions/{id}/versions/{v}", live, 1).then().statusCode(200).extract().asString())
                .contains(captain);
        assertThat(sealedValues.remembered(alice)).as("texts of hers remembered opened").isPositive();

        as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);

        assertThat(sealedValues.remembered(alice)).as("texts of hers remembered after the forget").isZero();

        assertThat(store.get(live).version()).as("a scrub is no new version").isEqualTo(version);
        for (long v : new long[] { 1, 2, 20, version }) {
            assertThat(as(alice).get("/v1/sessions/{id}/versions/{v}", live, v).then().statusCode(200).extract()
                    .asString()).as("version %d", v).doesNotContain(captain);
        }
        assertThat(as(alice).get("/v1/sessions/{id}/events?limit=100", live).then().statusCode(200).extract()
                .asString()).doesNotContain(captain);
        assertThat(chats.windows(live).toString()).doesNotContain(captain);
        assertThat(as(alice).get("/v1/me/export").then().statusCode(200).extract().asString()).doesNotContain(captain);
        step(alice, live, Map.of("goal", "Sail on"));
        assertThat(store.get(live).version()).isEqualTo(version + 1);
    }

    /** The task's distinctive words: each appears in one kind of stored text. */
    static List<String> words(String tag) {
        return List.of(tag, "Lofoten", "night crossings", "Svolvaer", "Albatross", "Reine", "Moskenes", "seasick",
                "Crew of two", "anchor", "Tide tables", "calm anchorages", "Too windy", "Haul out");
    }

    /**
     * A realistic task: a goal, context, a constraint, an open question, collected info, a step pointer, two plans (one
     * evaluated), observations (one promoted at the end), a keyed step, a chat window, and a step with a trace that
     * holds a tool result and the injected block. Answers the session.
     */
    String task(String user, String tag) {
        String session = start(user, "Sail to the Lofoten islands " + tag);
        step(user, session, Map.of("context", "Crew of two, June " + tag, "addConstraints",
                List.of(Map.of("id", "c1", "text", "No night crossings " + tag, "scope", "TASK"))));
        step(user, session, Map.of("addOpenQuestions", List.of("Which harbour in Svolvaer " + tag), "putCollected",
                Map.of("boat", "A sloop named Albatross " + tag), "stepPointer", Map.of("index", 1, "name",
                        "Haul out " + tag)));
        step(user, session, Map.of("addPlan", Map.of("content", "Day one Bodo to Reine " + tag)));
        step(user, session, Map.of("evaluatePlan", Map.of("version", 1, "score", 0.3, "feedback",
                "Too windy for Reine " + tag)));
        as(user).header("Idempotency-Key", UUID.randomUUID().toString()).body(Map.of("patch", Map.of("addPlan",
                Map.of("content", "Day one Bodo to Moskenes " + tag)))).post("/v1/sessions/{id}/steps", session).then()
                .statusCode(200);
        observe(user, session, "I get seasick in swell " + tag, "I always get seasick in swell " + tag, true);
        observe(user, session, "I like quiet coves " + tag, "Reine was lovely " + tag, false);
        chats.updateMessages(new RedisChatMemoryStore.Window(session, "trip"), List.of(
                UserMessage.from("Where do we anchor " + tag + "?"), AiMessage.from("In a calm cove near Reine " + tag)));
        long version = store.get(session).version();
        store.apply(StepWrite.of(session, SessionPatch.builder().putCollected("answer", "Anchor at Reine " + tag).build())
                .ownedBy(user).expecting(version).noting("step").by("test")
                .traced(traces.entry(new StepTrace(session, user, version + 1, "chat", "TripAi.chat", Instant.now(),
                        new StepTrace.Read(version, ProfileSnapshot.Status.LOADED, ProfileSnapshot.Cache.HIT, 1),
                        new StepTrace.Injected("abc", 10, 3, 1000, false, List.of(), List.of("Prefers calm anchorages "
                                + tag), List.of(), "<memory-data>\n"
                                        // a trace of kilobytes, as a real step's: sealed as it is, not deflated
                                        + ("- Prefers calm anchorages " + tag + "\n").repeat(40) + "</memory-data>"),
                        new StepTrace.Written(version, version + 1, 0, List.of("collected")),
                        new StepTrace.Timings(1, 2, 3, 4),
                        List.of(new ToolRun("tides", "{\"place\":\"Reine " + tag + "\"}", "Tide tables for Reine " + tag,
                                null, 12))))));
        return session;
    }

    private static String start(String user, String goal) {
        return as(user).body(Map.of("goal", goal)).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
    }

    private static void step(String user, String session, Map<String, Object> patch) {
        as(user).body(Map.of("patch", patch)).post("/v1/sessions/{id}/steps", session).then().statusCode(200);
    }

    /** The session values, told while {@link #claiming} that every user's data key is in memory. */
    @Alternative
    @Priority(1)
    @Singleton
    public static class ClaimsReady extends SealedSessionValues {

        static volatile boolean claiming;

        public ClaimsReady(MemoryCipher cipher) {
            super(cipher);
        }

        @Override
        public boolean ready(String userId) {
            return claiming || super.ready(userId);
        }
    }

    /** The configured key-encryption key, noting the thread of each data key it unwraps (a data key read). */
    @Alternative
    @Priority(1)
    @Singleton
    public static class ThreadsThatUnwrap extends ConfiguredKeyEncryptionKeys {

        static final List<String> THREADS = new CopyOnWriteArrayList<>();

        public ThreadsThatUnwrap(EncryptionConfig config) {
            super(config);
        }

        @Override
        public byte[] unwrap(Wrapped wrapped) {
            THREADS.add(Thread.currentThread().getName());
            return super.unwrap(wrapped);
        }
    }

    static void dropSchema() {
        try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
                Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists " + SCHEMA + " cascade");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
