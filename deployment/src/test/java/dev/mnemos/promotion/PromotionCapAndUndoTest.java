package dev.mnemos.promotion;

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
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.observeInSlot;
import static dev.mnemos.testsupport.Calls.service;
import static dev.mnemos.testsupport.Calls.start;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/**
 * What a session's promotion may change, and its undo, over HTTP against the real Postgres, in one application:
 * <ul>
 * <li>a session end never deletes a fact the user stated: at the profile's cap its candidates stay pending, and one
 * session promotes at most {@code quarkus.mnemos.promotion.max-per-session} facts;</li>
 * <li>undo of a session's promotion and the profile as of an instant (issue 35): the profile after an undo equals the
 * profile before the end, every revert is audited, later changes refuse it unless forced, racing undos apply once, and
 * forget stays final;</li>
 * <li>erasure of a user ({@code dev.mnemos.erasure}, the same application), by their own call or a service's, leaves 0
 * rows of theirs in every Mnemos table (found by the {@code user_id} column, and by the id anywhere in any row) and 0
 * Redis keys of their sessions, their index or their profile; another user's data stays. The export answers everything
 * held about the user as JSON;</li>
 * <li>profile writes with an Idempotency-Key (the same application): a repeat writes nothing and answers the first
 * write's changes; the same key with another request answers 422; a key is the user's own; concurrent requests with
 * one key apply once; a forget leaves no text (nor digest of one) in the records; an expired key is free again.</li>
 * </ul>
 */
class PromotionCapAndUndoTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            // the server's setting: Mnemos' extraction, reconcile and summaries take their deterministic paths
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false"));

    static final String BERLIN = "I live in Berlin";
    static final String PARIS = "I live in Paris";
    static final String ROME = "I live in Rome";
    static final String CHINESE = "Always answer in Chinese";
    static final String WINDOW = "I prefer window seats";

    @Inject
    AgroalDataSource db;
    @Inject
    RedisDataSource redis;
    @Inject
    RedisChatMemoryStore chats;

    private String alice;
    /** {@link #alice}'s bearer token, for the Idempotency-Key tests. */
    private String token;
    /** The erasure tests' second user and their texts' tag. */
    private String bob;
    private String tag;

    @BeforeEach
    void user() {
        alice = "undo-" + UUID.randomUUID();
        token = Tokens.user(alice);
        bob = "bob-" + UUID.randomUUID();
        tag = "x" + UUID.randomUUID().toString().substring(0, 8);
    }

    static long add(String user, String text, String slot) {
        Map<String, Object> body = new HashMap<>(Map.of("text", text));
        if (slot != null) {
            body.put("slot", slot);
        }
        return as(user).body(body).post("/v1/profile/facts").then().statusCode(201)
                .extract().jsonPath().getLong("changes.find { it.after == '" + text + "' }.factId");
    }

    /** The profile as comparable rows: id, text, slot, category, confidence, task state. */
    static List<List<Object>> facts(String user) {
        JsonPath profile = as(user).get("/v1/profile").then().statusCode(200).extract().jsonPath();
        List<List<Object>> rows = new ArrayList<>();
        for (Map<String, Object> f : profile.<Map<String, Object>> getList("facts")) {
            rows.add(Arrays.asList(f.get("id"), f.get("text"), f.get("slot"), f.get("category"),
                    f.get("confidence"), f.get("taskState")));
        }
        return rows;
    }

    /**
     * {@code text} in {@code slot} as an earlier session promoted it: a session end supersedes a promoted fact, never one
     * the user typed (which waits for the user's confirmation, {@link SessionEndTest}).
     */
    static long promoted(String user, String text, String slot) {
        String s = session(user, List.<String[]> of(new String[] { text, slot, "true" }));
        return end(user, s).getLong("profileChanges.find { it.after == '" + text + "' }.factId");
    }

    static List<String> texts(String user) {
        return as(user).get("/v1/profile").then().statusCode(200).extract().jsonPath().getList("facts.text", String.class);
    }

    static Response undo(String user, String session, boolean force) {
        return as(user).post("/v1/sessions/{id}/promotion/undo" + (force ? "?force=true" : ""), session);
    }

    static String session(String user, List<String[]> observations) {
        String s = start(user);
        for (String[] o : observations) {
            observeInSlot(user, s, o[0], o[1], Boolean.parseBoolean(o[2]));
        }
        return s;
    }

    private List<Map<String, Object>> history() {
        return as(alice).get("/v1/profile/history?limit=1000").then().statusCode(200).extract().jsonPath().getList("events");
    }

    /** A session that promotes Paris (superseding Berlin) and Chinese, and leaves window seats pending. */
    private String parisAndChinese() {
        String s = session(alice, List.of(new String[] { PARIS, "home.city", "true" },
                new String[] { CHINESE, "output.language", "true" }, new String[] { WINDOW, null, "false" }));
        JsonPath report = end(alice, s);
        assertThat(report.getList("promoted.text", String.class)).containsExactlyInAnyOrder(PARIS, CHINESE);
        assertThat(report.getList("pending.text", String.class)).containsExactly(WINDOW);
        assertThat(report.getString("profileChanges.find { it.after == '" + PARIS + "' }.before")).isEqualTo(BERLIN);
        return s;
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
    void undoRestoresTheProfileAsItWasBeforeTheEndAndAuditsEachChange() throws Exception {
        long berlin = promoted(alice, BERLIN, "home.city");
        add(alice, "I like jazz", null);
        List<List<Object>> before = facts(alice);
        List<String> validity = SqlRows.rows(db,
                "select status || ' ' || valid_from::text || ' ' || coalesce(valid_to::text, '-') from profile_fact"
                        + " where user_id = ? and id = ?",
                alice, berlin).get(0).stream().map(String::valueOf).toList();
        String s = parisAndChinese();
        assertThat(texts(alice)).containsExactlyInAnyOrder("I like jazz", PARIS, CHINESE);

        JsonPath undone = undo(alice, s, false).then().statusCode(200).extract().jsonPath();
        assertThat(undone.getBoolean("repeated")).isFalse();
        assertThat(undone.getList("changes.action", String.class)).containsExactly("UNDO", "RETRACT", "RETRACT", "RESTORE",
                "REJECT");
        assertThat(undone.getList("changes.findAll { it.action == 'RETRACT' }.before", String.class))
                .containsExactlyInAnyOrder(PARIS, CHINESE);
        assertThat(undone.getString("changes.find { it.action == 'RESTORE' }.after")).isEqualTo(BERLIN);
        assertThat(undone.getLong("changes.find { it.action == 'RESTORE' }.factId")).isEqualTo(berlin);
        assertThat(undone.getString("changes.find { it.action == 'REJECT' }.after")).isEqualTo(WINDOW);
        assertThat(undone.getList("kept")).isEmpty();
        assertThat(facts(alice)).isEqualTo(before);
        // the restored fact keeps its validity: the same valid_from, open again
        assertThat(SqlRows.rows(db, "select status || ' ' || valid_from::text || ' ' || coalesce(valid_to::text, '-')"
                + " from profile_fact where user_id = ? and id = ?", alice, berlin).get(0).stream().map(String::valueOf)
                .toList()).isEqualTo(validity);
        as(alice).get("/v1/profile/pending").then().statusCode(200).body("size()", equalTo(0));
        // every change is in the audit trail, naming the session and the caller
        List<Map<String, Object>> trail = history();
        for (String action : List.of("UNDO", "RETRACT", "RESTORE")) {
            assertThat(trail).filteredOn(e -> action.equals(e.get("action")))
                    .allSatisfy(e -> assertThat(e).containsEntry("sessionId", s).containsEntry("actor", alice)).isNotEmpty();
        }
        assertThat(SqlRows.rows(db, "select count(*) from profile_event where user_id = ? and undoes is not null", alice)
                .get(0).get(0).toString()).isEqualTo("3");

        // again: the same answer, nothing written
        JsonPath again = undo(alice, s, false).then().statusCode(200).extract().jsonPath();
        assertThat(again.getBoolean("repeated")).isTrue();
        assertThat(again.getList("changes.eventId", Long.class)).isEqualTo(undone.getList("changes.eventId", Long.class));
        assertThat(history()).hasSameSizeAs(trail);
        assertThat(facts(alice)).isEqualTo(before);
    }

    @Test
    void aLaterChangeToTheSameFactRefusesTheUndoAndForceRevertsTheRest() {
        long berlin = promoted(alice, BERLIN, "home.city");
        String a = parisAndChinese();
        long paris = as(alice).get("/v1/profile").then().extract().jsonPath()
                .getLong("facts.find { it.text == '" + PARIS + "' }.id");
        String b = session(alice, List.<String[]> of(new String[] { ROME, "home.city", "true" }));
        assertThat(end(alice, b).getList("promoted.text", String.class)).containsExactly(ROME);
        List<List<Object>> beforeUndo = facts(alice);
        int events = history().size();

        JsonPath refused = undo(alice, a, false).then().statusCode(409).contentType("application/problem+json")
                .extract().jsonPath();
        assertThat(refused.getString("field")).isEqualTo("force");
        assertThat(refused.getList("factIds", Long.class)).contains(paris, berlin);
        assertThat(refused.getString("detail")).contains("fact " + paris + " (", "session " + b, "force=true");
        assertThat(facts(alice)).isEqualTo(beforeUndo);
        assertThat(history()).hasSize(events);
        as(alice).get("/v1/profile/pending").then().body("text", equalTo(List.of(WINDOW)));

        JsonPath forced = undo(alice, a, true).then().statusCode(200).extract().jsonPath();
        assertThat(forced.getList("changes.findAll { it.action == 'RETRACT' }.before", String.class)).containsExactly(CHINESE);
        assertThat(forced.getList("changes.action", String.class)).doesNotContain("RESTORE");
        assertThat(forced.getList("kept.factId", Long.class)).containsExactlyInAnyOrder(paris, berlin);
        assertThat(forced.getString("changes[0].reason")).contains("forced over later changes");
        assertThat(texts(alice)).containsExactly(ROME);
        as(alice).get("/v1/profile/pending").then().body("size()", equalTo(0));
    }

    @Test
    void twoUndosRacingApplyOnce() throws Exception {
        promoted(alice, BERLIN, "home.city");
        List<List<Object>> before = facts(alice);
        String s = parisAndChinese();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        Callable<JsonPath> call = () -> {
            go.await();
            return undo(alice, s, false).then().statusCode(200).extract().jsonPath();
        };
        try {
            Future<JsonPath> one = pool.submit(call);
            Future<JsonPath> two = pool.submit(call);
            go.countDown();
            JsonPath first = one.get(60, TimeUnit.SECONDS);
            JsonPath second = two.get(60, TimeUnit.SECONDS);
            assertThat(first.getList("changes.eventId", Long.class)).isEqualTo(second.getList("changes.eventId", Long.class));
            assertThat(List.of(first.getBoolean("repeated"), second.getBoolean("repeated"))).containsExactlyInAnyOrder(true,
                    false);
        } finally {
            pool.shutdownNow();
        }
        assertThat(SqlRows.rows(db, "select action from profile_event where user_id = ? and session_id = ? and action in"
                + " ('UNDO', 'RETRACT', 'RESTORE') order by id", alice, s).stream().map(r -> r.get(0).toString()).toList())
                .containsExactly("UNDO", "RETRACT", "RETRACT", "RESTORE");
        assertThat(facts(alice)).isEqualTo(before);
    }

    @Test
    void aFactForgottenAfterThePromotionStaysForgotten() throws Exception {
        long berlin = promoted(alice, BERLIN, "home.city");
        String s = parisAndChinese();
        as(alice).delete("/v1/profile/facts/{id}", berlin).then().statusCode(200);
        Instant afterForget = Instant.now();

        JsonPath undone = undo(alice, s, false).then().statusCode(200).extract().jsonPath();
        assertThat(undone.getList("changes.findAll { it.action == 'RETRACT' }.before", String.class))
                .containsExactlyInAnyOrder(PARIS, CHINESE);
        assertThat(undone.getList("changes.action", String.class)).doesNotContain("RESTORE");
        assertThat(undone.getList("kept.factId", Long.class)).containsExactly(berlin);
        assertThat(undone.getString("kept[0].reason")).startsWith("forgotten by the user");
        assertThat(texts(alice)).isEmpty();
        // the text is nowhere: not in the profile, its history, or the profile as of any instant
        String everything = as(alice).get("/v1/profile/history?limit=1000").asString()
                + as(alice).get("/v1/profile?asOf={t}", afterForget.minusSeconds(3600).toString()).asString()
                + as(alice).get("/v1/profile?asOf={t}", afterForget.toString()).asString()
                + as(alice).get("/v1/profile/diff?from={f}&to={t}", afterForget.minusSeconds(3600).toString(),
                        Instant.now().toString()).asString();
        assertThat(everything).doesNotContain(BERLIN);
        assertThat(SqlRows.rows(db, "select count(*) from profile_fact where user_id = ? and text = ?", alice, BERLIN).get(0)
                .get(0).toString()).isEqualTo("0");
    }

    @Test
    void theProfileAsOfInstantsOfAScriptedHistory() throws Exception {
        Instant empty = Instant.now();
        Thread.sleep(5);
        long berlin = promoted(alice, BERLIN, "home.city");
        Instant one = Instant.now();
        Thread.sleep(5);
        String s = session(alice, List.<String[]> of(new String[] { PARIS, "home.city", "true" }));
        end(alice, s);
        Instant moved = Instant.now();
        Thread.sleep(5);
        undo(alice, s, false).then().statusCode(200);
        Instant back = Instant.now();

        as(alice).get("/v1/profile?asOf={t}", empty.toString()).then().statusCode(200)
                .body("asOf", equalTo(empty.toString())).body("facts.size()", equalTo(0));
        as(alice).get("/v1/profile?asOf={t}", one.toString()).then().statusCode(200)
                .body("facts.text", equalTo(List.of(BERLIN))).body("facts[0].madeBy.action", equalTo("PROMOTE"));
        // Berlin was superseded from the end until the undo: that gap is not Berlin's
        JsonPath paris = as(alice).get("/v1/profile?asOf={t}", moved.toString()).then().statusCode(200).extract().jsonPath();
        assertThat(paris.getList("facts.text", String.class)).containsExactly(PARIS);
        assertThat(paris.getString("facts[0].madeBy.action")).isEqualTo("PROMOTE");
        assertThat(paris.getString("facts[0].madeBy.sessionId")).isEqualTo(s);
        JsonPath restored = as(alice).get("/v1/profile?asOf={t}", back.toString()).then().statusCode(200).extract()
                .jsonPath();
        assertThat(restored.getList("facts.id", Long.class)).containsExactly(berlin);
        assertThat(restored.getString("facts[0].madeBy.action")).isEqualTo("RESTORE");

        JsonPath diff = as(alice).get("/v1/profile/diff?from={f}&to={t}", one.toString(), moved.toString()).then()
                .statusCode(200).extract().jsonPath();
        assertThat(diff.getString("changes.find { it.change == 'removed' }.fact.text")).isEqualTo(BERLIN);
        assertThat(diff.getString("changes.find { it.change == 'removed' }.by.sessionId")).isEqualTo(s);
        assertThat(diff.getString("changes.find { it.change == 'added' }.fact.text")).isEqualTo(PARIS);
        assertThat(diff.getString("changes.find { it.change == 'added' }.by.action")).isEqualTo("PROMOTE");
        assertThat(diff.getList("events.action", String.class)).contains("PROMOTE");
        JsonPath undid = as(alice).get("/v1/profile/diff?from={f}&to={t}", moved.toString(), back.toString()).then()
                .statusCode(200).extract().jsonPath();
        assertThat(undid.getString("changes.find { it.change == 'removed' }.by.action")).isEqualTo("RETRACT");
        assertThat(undid.getString("changes.find { it.change == 'added' }.by.action")).isEqualTo("RESTORE");
        assertThat(undid.getString("changes.find { it.change == 'added' }.by.actor")).isEqualTo(alice);
    }

    @Test
    void badInputAndOwnership() {
        String s = session(alice, List.<String[]> of(new String[] { CHINESE, "output.language", "true" }));
        // a live session has no promotion to undo
        undo(alice, s, false).then().statusCode(404);
        end(alice, s);
        as(alice).post("/v1/sessions/{id}/promotion/undo?force=yes", s).then().statusCode(400).body("field",
                equalTo("force"));
        as(alice).post("/v1/sessions/{id}/promotion/undo", "bad id!").then().statusCode(400);
        as(alice).get("/v1/profile?asOf=yesterday").then().statusCode(400).body("field", equalTo("asOf"));
        as(alice).get("/v1/profile/diff?to=2026-01-01T00:00:00Z").then().statusCode(400).body("field", equalTo("from"));
        as(alice).get("/v1/profile/diff?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z").then().statusCode(400)
                .body("field", equalTo("to"));
        as(alice).queryParam("asOf", "2026-01-01T00:00:00+01:00").get("/v1/profile").then().statusCode(200)
                .body("asOf", equalTo("2025-12-31T23:00:00Z"));

        String bob = "undo-bob-" + UUID.randomUUID();
        undo(bob, s, false).then().statusCode(404);
        given().auth().oauth2(Tokens.user(bob)).get("/v1/users/{u}/profile?asOf={t}", alice, Instant.now().toString())
                .then().statusCode(404);
        assertThat(texts(alice)).containsExactly(CHINESE);
        // a service acts for the user through the user's path, and is named as the actor
        JsonPath byService = given().auth().oauth2(Tokens.service("svc-undo")).contentType(ContentType.JSON)
                .post("/v1/users/{u}/sessions/{id}/promotion/undo", alice, s).then().statusCode(200).extract().jsonPath();
        assertThat(byService.getString("changes[0].reason")).contains(s);
        assertThat(texts(alice)).isEmpty();
        assertThat(history()).filteredOn(e -> "RETRACT".equals(e.get("action")))
                .allSatisfy(e -> assertThat(e).containsEntry("actor", "svc-undo"));
    }

    // the cap

    @Test
    void aSessionAtTheCapDeletesNoneOfTheUsersFacts() throws Exception {
        for (int i = 0; i < 50; i++) {
            as(alice).body(Map.of("text", "Typed by the user, number " + i)).post("/v1/profile/facts").then().statusCode(201);
        }
        List<Long> typed = facts().getList("facts.id", Long.class);
        String s = start(alice);
        for (int i = 0; i < 50; i++) {
            observe(alice, s, "From now on always mention the code word " + i, null, true);
        }
        JsonPath report = end(alice, s);

        List<Long> after = facts().getList("facts.id", Long.class);
        long deleted = typed.stream().filter(id -> !after.contains(id)).count();
        assertThat(deleted).as("user facts deleted by promotion").isZero();
        assertThat(after).hasSize(50);
        assertThat(report.getList("promoted")).isEmpty();
        List<String> reasons = report.getList("pending.reason", String.class);
        assertThat(reasons).hasSize(50).allMatch(r -> r.contains("50 active facts") || r.contains("at most 5"));
        assertThat(reasons.stream().filter(r -> r.contains("50 active facts"))).as("the session's first five").hasSize(5);
        assertThat(count("select count(*) from profile_event where user_id = ? and action = 'DELETE'", alice)).isZero();
        assertThat(as(alice).get("/v1/profile/pending?limit=100").then().statusCode(200).extract().jsonPath()
                .getList("$")).hasSize(50);
    }

    @Test
    void oneSessionPromotesAtMostTheConfiguredNumberAndLeavesTheRestPending() throws Exception {
        String s = start(alice);
        for (int i = 0; i < 8; i++) {
            observe(alice, s, "From now on always mention the code word " + i, null, true);
        }
        JsonPath report = end(alice, s);
        assertThat(report.getList("promoted.text", String.class)).hasSize(5);
        assertThat(report.getList("pending.reason", String.class)).hasSize(3)
                .allMatch(r -> r.contains("at most 5"));
        assertThat(facts().getList("facts")).hasSize(5);
        long pending = as(alice).get("/v1/profile/pending").then().extract().jsonPath().getList("$").size();
        assertThat(pending).isEqualTo(3);
        long candidate = report.getLong("pending[0].candidateId");
        as(alice).post("/v1/profile/pending/{id}/confirm", candidate).then().statusCode(200);
        assertThat(facts().getList("facts")).hasSize(6);
    }

    @Test
    void confirmingAtTheCapIsRefusedLikeAnAdd() {
        String s = start(alice);
        observe(alice, s, "Likes window seats", null, false);
        long candidate = end(alice, s).getLong("pending[0].candidateId");
        for (int i = 0; i < 50; i++) {
            as(alice).body(Map.of("text", "Typed by the user, number " + i)).post("/v1/profile/facts").then().statusCode(201);
        }
        as(alice).post("/v1/profile/pending/{id}/confirm", candidate).then().statusCode(409)
                .contentType("application/problem+json");
        assertThat(facts().getList("facts.text", String.class)).hasSize(50).doesNotContain("Likes window seats");
        assertThat(as(alice).get("/v1/profile/pending").then().extract().jsonPath().getList("id", Long.class))
                .containsExactly(candidate);
    }

    private JsonPath facts() {
        return as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath();
    }

    private long count(String sql, Object... params) throws Exception {
        return SqlRows.count(db, sql, params);
    }

    // erasure of a user and the export

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

    // Profile writes with an Idempotency-Key

    private static final String KEY = "Idempotency-Key";

    private RequestSpecification keyed(String key) {
        RequestSpecification spec = given().auth().oauth2(token).contentType(ContentType.JSON);
        return key == null ? spec : spec.header(KEY, key);
    }

    private ExtractableResponse<Response> addKeyed(String key, String text, int status) {
        return keyed(key).body(Map.of("text", text)).post("/v1/profile/facts").then().statusCode(status).extract();
    }

    @Test
    void repeatedAddWritesOnceAndAnswersTheFirstChanges() throws Exception {
        ExtractableResponse<Response> first = addKeyed("add-1", "Keeps bees", 201);
        ExtractableResponse<Response> again = addKeyed("add-1", "Keeps bees", 201);

        assertThat(again.jsonPath().getList("changes")).isEqualTo(first.jsonPath().getList("changes"));
        assertThat(first.jsonPath().getString("changes[0].action")).isEqualTo("ADD");
        assertThat(first.jsonPath().getLong("changes[0].eventId")).isPositive();
        assertThat(again.jsonPath().getList("facts.text")).containsExactly("Keeps bees");
        assertThat(rows("select action from profile_event where user_id = ?", alice)).containsExactly(List.of("ADD"));
        assertThat(rows("select evidence_count from profile_fact where user_id = ?", alice)).containsExactly(List.of("1"));
        assertThat(rows("select count(*) from profile_request where user_id = ?", alice)).containsExactly(List.of("1"));

        // the same request without a key is a second write: the duplicate counts as more evidence
        assertThat(addKeyed(null, "Keeps bees", 201).jsonPath().getString("changes[0].action")).isEqualTo("MERGE");
        assertThat(rows("select evidence_count from profile_fact where user_id = ?", alice)).containsExactly(List.of("2"));
    }

    @Test
    void sameKeyWithAnotherRequestAnswers422AndWritesNothing() throws Exception {
        addKeyed("k", "Speaks Dutch", 201);
        keyed("k").body(Map.of("text", "Speaks Danish")).post("/v1/profile/facts").then().statusCode(422)
                .contentType("application/problem+json")
                .body("field", equalTo(KEY))
                .body("detail", containsString("different request"));
        // another operation under the same key is another request too
        keyed("k").body(Map.of("instruction", "remember I speak Dutch")).post("/v1/profile/instruct").then()
                .statusCode(422).body("field", equalTo(KEY));
        given().auth().oauth2(token).get("/v1/profile").then().body("facts.text", equalTo(List.of("Speaks Dutch")));
        assertThat(rows("select count(*) from profile_event where user_id = ?", alice)).containsExactly(List.of("1"));
    }

    @Test
    void aKeyIsTheUsersOwn() {
        addKeyed("shared-key", "Cycles to work", 201);
        String otherUser = "idem-bob-" + UUID.randomUUID();
        given().auth().oauth2(Tokens.user(otherUser)).contentType(ContentType.JSON).header(KEY, "shared-key")
                .body(Map.of("text", "Drives to work")).post("/v1/profile/facts").then().statusCode(201)
                .body("changes[0].action", equalTo("ADD"));
        given().auth().oauth2(Tokens.user(otherUser)).get("/v1/profile").then()
                .body("facts.text", equalTo(List.of("Drives to work")));
        given().auth().oauth2(token).get("/v1/profile").then().body("facts.text", equalTo(List.of("Cycles to work")));
    }

    @Test
    void repeatedCorrectAndForgetAnswerTheirFirstChanges() throws Exception {
        long id = addKeyed(null, "Lives in Lyon", 201).jsonPath().getLong("changes[0].factId");
        List<Object> corrected = keyed("fix").body(Map.of("text", "Lives in Lille")).put("/v1/profile/facts/{id}", id).then()
                .statusCode(200).body("changes[0].action", equalTo("UPDATE")).extract().jsonPath().getList("changes");
        // without the key the repeat would be a 404: the corrected fact is no longer active
        keyed("fix").body(Map.of("text", "Lives in Lille")).put("/v1/profile/facts/{id}", id).then().statusCode(200)
                .body("changes", equalTo(corrected));
        long lille = given().auth().oauth2(token).get("/v1/profile").then().body("facts", hasSize(1)).extract()
                .jsonPath().getLong("facts[0].id");

        List<Object> forgotten = keyed("drop").delete("/v1/profile/facts/{id}", lille).then().statusCode(200)
                .body("changes[0].action", equalTo("FORGET")).extract().jsonPath().getList("changes");
        keyed("drop").delete("/v1/profile/facts/{id}", lille).then().statusCode(200).body("changes", equalTo(forgotten))
                .body("facts", hasSize(0));
        keyed(null).delete("/v1/profile/facts/{id}", lille).then().statusCode(404);
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
                    return addKeyed("race", "Plays the cello", 201);
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
            keyed("jazz").body(Map.of("instruction", "remember I like jazz")).post("/v1/profile/instruct").then()
                    .statusCode(200).body("path", equalTo("DETERMINISTIC")).body("changes", hasSize(1));
            keyed("export").body(Map.of("text", "- Vegetarian\n- Owns a cat")).post("/v1/profile/import").then()
                    .statusCode(200).body("changes", hasSize(2));
        }
        assertThat(rows("select count(*) from profile_event where user_id = ?", alice)).containsExactly(List.of("3"));
        assertThat(rows("select evidence_count from profile_fact where user_id = ? order by id", alice))
                .containsExactly(List.of("1"), List.of("1"), List.of("1"));
    }

    @Test
    void aForgetLeavesNoTextNorDigestOfOneInTheRecords() throws Exception {
        long id = addKeyed("paris", "Lives in Paris", 201).jsonPath().getLong("changes[0].factId");
        keyed(null).delete("/v1/profile/facts/{id}", id).then().statusCode(200);

        // the repeat answers the first write's change as the audit trail holds it now: without the text
        addKeyed("paris", "Lives in Paris", 201).response().then().body("changes[0].action", equalTo("ADD"))
                .body("changes[0].after", nullValue()).body("facts", hasSize(0));
        // with the digest gone the key is spent: any request with it answers its record, and writes nothing
        addKeyed("paris", "Lives in Rome", 201).response().then().body("changes[0].after", nullValue());
        assertThat(rows("select fingerprint is null from profile_request where user_id = ?", alice))
                .containsExactly(List.of("t"));
        assertThat(rows("select count(*) from profile_fact where user_id = ?", alice)).containsExactly(List.of("0"));
        // an instruction that forgets is recorded without its digest (it may quote the text)
        keyed(null).body(Map.of("instruction", "remember I live in Oslo")).post("/v1/profile/instruct").then().statusCode(200);
        keyed("forget-oslo").body(Map.of("instruction", "forget where I live")).post("/v1/profile/instruct").then()
                .statusCode(200).body("changes[0].action", equalTo("FORGET"));
        assertThat(rows("select fingerprint is null from profile_request where user_id = ? and idem_key = ?", alice,
                "forget-oslo")).containsExactly(List.of("t"));
    }

    @Test
    void anExpiredKeyIsFreeAgain() throws Exception {
        addKeyed("old", "Reads sci-fi", 201);
        try (var c = db.getConnection();
                var s = c.prepareStatement(
                        "update profile_request set created_at = now() - interval '25 hours' where user_id = ?")) {
            s.setString(1, alice);
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
        // past quarkus.mnemos.profile.idempotency-ttl (24 h) the key is a new request: written again (as more evidence)
        addKeyed("old", "Reads sci-fi", 201).response().then().body("changes[0].action", equalTo("MERGE"));
        assertThat(rows("select evidence_count from profile_fact where user_id = ?", alice)).containsExactly(List.of("2"));
        assertThat(rows("select count(*), bool_and(created_at > now() - interval '1 hour') from profile_request "
                + "where user_id = ?", alice)).containsExactly(List.of("1", "t"));
    }

    @Test
    void aMalformedKeyAnswers400NamingTheHeaderAndWritesNothing() throws Exception {
        addKeyed("has space", "Likes tea", 400).response().then().contentType("application/problem+json")
                .body("field", equalTo(KEY));
        addKeyed("x".repeat(256), "Likes tea", 400).response().then().body("field", equalTo(KEY));
        assertThat(rows("select count(*) from profile_event where user_id = ?", alice)).containsExactly(List.of("0"));
    }

    private List<List<String>> rows(String sql, Object... params) throws Exception {
        return SqlRows.rows(db, sql, params);
    }
}
