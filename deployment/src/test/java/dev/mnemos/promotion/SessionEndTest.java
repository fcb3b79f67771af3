package dev.mnemos.promotion;

import dev.mnemos.session.SessionKeys;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.SqlRows;
import io.agroal.api.AgroalDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.observeInSlot;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

/**
 * A session's end: its observations promoted, rejected with reasons or left pending, the session archived and
 * cleared from Redis and still replayable, only by its owner, concurrent ends of one user's sessions, and the
 * owner's answer to pending candidates.
 */
class SessionEndTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings());

    @Inject
    RedisDataSource redis;

    @Inject
    AgroalDataSource db;

    private String alice;

    @BeforeEach
    void user() {
        alice = "alice-" + UUID.randomUUID();
    }

    private List<String> profile() {
        return as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath().getList("facts.text", String.class);
    }

    @Test
    void standingPreferencesArePromotedAndTaskScopedOnesRejectedWithReasons() throws Exception {
        String s = start(alice);
        observe(alice, s, "From now on, answer with bullet points", null, true);
        observe(alice, s, "以后都用中文回答", null, true);
        observe(alice, s, "My budget is $500 for this trip", null, true);
        observe(alice, s, "I had milk today so no crab", null, true);
        observe(alice, s, "Likes window seats", null, false);
        JsonPath report = end(alice, s);
        assertThat(report.getList("promoted.text", String.class))
                .containsExactly("From now on, answer with bullet points", "以后都用中文回答");
        assertThat(report.getList("rejected.text", String.class))
                .containsExactly("My budget is $500 for this trip", "I had milk today so no crab");
        assertThat(report.getList("rejected.reason", String.class)).allMatch(r -> r.startsWith("task-scoped"));
        assertThat(report.getList("pending.text", String.class)).containsExactly("Likes window seats");
        assertThat(profile()).containsExactly("From now on, answer with bullet points", "以后都用中文回答");
        assertThat(rows("select action, session_id from profile_event where user_id = ? order by id", alice))
                .containsExactly(List.of("REJECT", s), List.of("REJECT", s), List.of("PENDING", s),
                        List.of("PROMOTE", s), List.of("PROMOTE", s));
    }

    @Test
    void thisTurnBeatsTheProfileButIsNotPromoted() {
        as(alice).body(Map.of("text", "Always reply in Chinese", "slot", "output.language"))
                .post("/v1/profile/facts").then().statusCode(201);
        String s = start(alice);
        observeInSlot(alice, s, "Reply in English this time", "output.language", true);
        as(alice).get("/v1/sessions/{id}", s).then().statusCode(200)
                .body("observations.text", hasItem("Reply in English this time"));
        JsonPath report = end(alice, s);
        assertThat(report.getList("rejected.text", String.class)).containsExactly("Reply in English this time");
        assertThat(report.getString("rejected[0].reason")).contains("this time");
        assertThat(report.getList("promoted")).isEmpty();
        as(alice).get("/v1/profile").then().body("facts.text", equalTo(List.of("Always reply in Chinese")));
    }

    @Test
    void endedSessionIsArchivedClearedAndStillReplayable() {
        String s = start(alice);
        as(alice).body(Map.of("patch", Map.of("putCollected", Map.of("city", "Kyoto 京都 🚀"))))
                .post("/v1/sessions/{id}/steps", s)
                .then().statusCode(200);
        as(alice).body(Map.of("patch", Map.of("addPlan", Map.of("content", "1. fly\n2. walk"))))
                .post("/v1/sessions/{id}/steps", s)
                .then().statusCode(200);
        JsonPath first = end(alice, s);
        for (String key : SessionKeys.all(s)) {
            assertThat(redis.key().exists(key)).as(key).isFalse();
        }
        as(alice).get("/v1/sessions/{id}/events", s).then().statusCode(200)
                .body("type", equalTo(List.of("CREATE", "PATCH", "PATCH", "END")));
        as(alice).get("/v1/sessions/{id}/versions", s).then().statusCode(200).body("version", equalTo(List.of(1, 2, 3, 4)));
        as(alice).get("/v1/sessions/{id}/versions/{v}", s, 2).then().statusCode(200)
                .body("collected.city", equalTo("Kyoto 京都 🚀")).body("plans", hasSize(0));
        JsonPath again = end(alice, s);
        assertThat(again.getString("endedAt")).isEqualTo(first.getString("endedAt"));
        as("bob-" + UUID.randomUUID()).post("/v1/sessions/{id}/end", s).then().statusCode(404);
        as("bob-" + UUID.randomUUID()).get("/v1/sessions/{id}/events", s).then().statusCode(404);
    }

    @Test
    void anotherUserCannotEndTheSession() {
        String s = start(alice);
        as("bob-" + UUID.randomUUID()).post("/v1/sessions/{id}/end", s).then().statusCode(404)
                .contentType("application/problem+json");
        as(alice).get("/v1/sessions/{id}", s).then().statusCode(200).body("status", equalTo("ACTIVE"));
        as(alice).post("/v1/sessions/{id}/end", "no-such-session").then().statusCode(404);
    }

    @Test
    void implicitPreferenceIsPendingUntilSeenInThreeSessions() {
        for (int i = 1; i <= 2; i++) {
            String s = start(alice);
            observe(alice, s, "Prefers aisle seats", null, false);
            assertThat(end(alice, s).getList("pending.text", String.class)).containsExactly("Prefers aisle seats");
        }
        assertThat(profile()).isEmpty();
        as(alice).get("/v1/profile/pending").then().body("text",
                equalTo(List.of("Prefers aisle seats", "Prefers aisle seats")));
        String third = start(alice);
        observe(alice, third, "Prefers aisle seats", null, false);
        JsonPath report = end(alice, third);
        assertThat(report.getList("promoted.text", String.class)).containsExactly("Prefers aisle seats");
        assertThat(report.getString("promoted[0].reason")).contains("3 of 3");
        assertThat(profile()).containsExactly("Prefers aisle seats");
        as(alice).get("/v1/profile/pending").then().body("$", hasSize(0));
    }

    @Test
    void chineseImplicitPreferenceIsPendingUntilSeenInThreeSessions() {
        for (int i = 1; i <= 2; i++) {
            String s = start(alice);
            observe(alice, s, "喜欢靠过道的座位", null, false);
            assertThat(end(alice, s).getList("pending.text", String.class)).containsExactly("喜欢靠过道的座位");
        }
        assertThat(profile()).isEmpty();
        String third = start(alice);
        observe(alice, third, "喜欢靠过道的座位", null, false);
        assertThat(end(alice, third).getList("promoted.text", String.class)).containsExactly("喜欢靠过道的座位");
        assertThat(profile()).containsExactly("喜欢靠过道的座位");
    }

    @Test
    void chineseContradictionInALaterSessionSupersedesTheSlot() {
        String first = start(alice);
        observe(alice, first, "以后都用中文回答", null, true);
        end(alice, first);
        String second = start(alice);
        observe(alice, second, "以后都用英文回答", null, true);
        JsonPath report = end(alice, second);
        assertThat(report.getString("profileChanges[0].before")).isEqualTo("以后都用中文回答");
        as(alice).get("/v1/profile").then().body("facts.text", equalTo(List.of("以后都用英文回答")))
                .body("facts[0].slot", equalTo("output.language"));
    }

    @Test
    void rewordedRepeatsCountAsTheSamePreference() {
        List<String> wordings = List.of("Prefers aisle seats", "prefers an aisle seat", "Prefers aisle seats!");
        JsonPath report = null;
        for (String wording : wordings) {
            String s = start(alice);
            observe(alice, s, wording, null, false);
            report = end(alice, s);
        }
        assertThat(report.getList("promoted.text", String.class)).containsExactly("Prefers aisle seats!");
        as(alice).get("/v1/profile/pending").then().body("$", hasSize(0));
    }

    @Test
    void contradictionInALaterSessionSupersedesTheSlot() {
        String first = start(alice);
        observe(alice, first, "From now on reply in Chinese", null, true);
        end(alice, first);
        String second = start(alice);
        observe(alice, second, "From now on reply in English", null, true);
        JsonPath report = end(alice, second);
        assertThat(report.getString("profileChanges[0].action")).isEqualTo("PROMOTE");
        assertThat(report.getString("profileChanges[0].before")).isEqualTo("From now on reply in Chinese");
        as(alice).get("/v1/profile").then().body("facts.text", equalTo(List.of("From now on reply in English")))
                .body("facts[0].slot", equalTo("output.language"));
    }

    /**
     * Proves the two calls overlapped: the test holds alice's profile row lock, so each /end blocks inside its
     * commit; both are seen waiting on the test's connection in Postgres before the lock is released.
     */
    @Test
    void twoSessionsEndingConcurrentlyBothLand() throws Exception {
        List<String> expected = new ArrayList<>();
        for (int pair = 0; pair < 3; pair++) {
            String a = start(alice);
            String b = start(alice);
            observe(alice, a, "Always include sources of kind " + pair, null, true);
            observe(alice, b, "Never use emojis in reply type " + pair, null, true);
            expected.add("Always include sources of kind " + pair);
            expected.add("Never use emojis in reply type " + pair);
            CompletableFuture<Integer> endA;
            CompletableFuture<Integer> endB;
            try (Connection lock = db.getConnection()) {
                lock.setAutoCommit(false);
                long holder = holdProfileLock(lock, alice);
                endA = CompletableFuture.supplyAsync(() -> as(alice).post("/v1/sessions/{id}/end", a).statusCode());
                endB = CompletableFuture.supplyAsync(() -> as(alice).post("/v1/sessions/{id}/end", b).statusCode());
                awaitWaiters(holder, 2, endA, endB);
                lock.rollback();
            }
            assertThat(endA.get(60, TimeUnit.SECONDS)).isEqualTo(200);
            assertThat(endB.get(60, TimeUnit.SECONDS)).isEqualTo(200);
        }
        assertThat(profile()).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** Locks the user's profile row on {@code c} (its transaction stays open); answers the backend's pid. */
    private static long holdProfileLock(Connection c, String user) throws Exception {
        try (var st = c.prepareStatement("insert into profile_owner (user_id) values (?) on conflict do nothing")) {
            st.setString(1, user);
            st.executeUpdate();
        }
        try (var st = c.prepareStatement("select user_id from profile_owner where user_id = ? for update")) {
            st.setString(1, user);
            st.executeQuery().close();
        }
        try (var st = c.createStatement(); var rs = st.executeQuery("select pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Waits until {@code count} backends are blocked by {@code holder}; fails if a call finished first. */
    private void awaitWaiters(long holder, int count, CompletableFuture<?>... calls) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
        // the first waiter waits for the holder, a second one may wait for the first (the row's tuple lock)
        String waiters = "with recursive w(pid) as (select pid from pg_stat_activity where ? = any (pg_blocking_pids(pid))"
                + " union select a.pid from pg_stat_activity a join w on w.pid = any (pg_blocking_pids(a.pid)))"
                + " select count(*) from w";
        while (SqlRows.count(db, waiters, (int) holder) < count) {
            for (CompletableFuture<?> call : calls) {
                assertThat(call).as("an /end returned while the profile lock was held").isNotDone();
            }
            assertThat(System.nanoTime()).as("both /end calls blocked on the profile lock").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void pendingCandidatesAreConfirmedOrRejectedOnlyByTheirOwner() {
        String s = start(alice);
        observe(alice, s, "Likes jazz", null, false);
        observe(alice, s, "喜欢靠窗的座位", null, false);
        end(alice, s);
        List<Integer> ids = as(alice).get("/v1/profile/pending").then().statusCode(200)
                .body("text", equalTo(List.of("Likes jazz", "喜欢靠窗的座位"))).extract().jsonPath().getList("id");
        String bob = "bob-" + UUID.randomUUID();
        as(bob).get("/v1/profile/pending").then().statusCode(200).body("$", hasSize(0));
        as(bob).post("/v1/profile/pending/{id}/confirm", ids.get(0)).then().statusCode(404)
                .contentType("application/problem+json");
        as(bob).post("/v1/profile/pending/{id}/reject", ids.get(1)).then().statusCode(404);
        as(alice).post("/v1/profile/pending/{id}/confirm", ids.get(0)).then().statusCode(200)
                .body("profileChanges[0].action", equalTo("PROMOTE"));
        as(alice).post("/v1/profile/pending/{id}/reject", ids.get(1)).then().statusCode(200)
                .body("profileChanges[0].action", equalTo("REJECT"));
        as(alice).post("/v1/profile/pending/{id}/confirm", ids.get(1)).then().statusCode(404);
        assertThat(profile()).containsExactly("Likes jazz");
        as(alice).get("/v1/profile/pending").then().body("$", hasSize(0));
        as(alice).get("/v1/profile/history").then().body("events[0].reason", containsString("rejected by the user"));
    }

    @Test
    void forgettingAPromotedFactScrubsCandidatesAndArchive() throws Exception {
        String secret = "From now on call me Captain " + UUID.randomUUID();
        String s = start(alice);
        observe(alice, s, secret, null, true);
        JsonPath report = end(alice, s);
        long factId = report.getLong("profileChanges[0].factId");
        as(alice).delete("/v1/profile/facts/{id}", factId).then().statusCode(200);
        assertThat(count("select count(*) from promotion_candidate where text = ?", secret)).isZero();
        assertThat(count("select count(*) from session_archive where strpos(final_state, ?) > 0 or strpos(events, ?) > 0"
                + " or strpos(report, ?) > 0", secret, secret, secret)).isZero();
        assertThat(count("select count(*) from profile_fact where text = ?", secret)).isZero();
        as(alice).get("/v1/sessions/{id}/events", s).then().statusCode(200);
    }

    @Test
    void forgettingAConfirmedCandidateLeavesNoTextInTheAuditTrail() throws Exception {
        String secret = "Likes the colour " + UUID.randomUUID();
        String s = start(alice);
        observe(alice, s, secret, null, false);
        JsonPath report = end(alice, s);
        long candidate = report.getLong("pending[0].candidateId");
        long factId = as(alice).post("/v1/profile/pending/{id}/confirm", candidate).then().statusCode(200)
                .extract().jsonPath().getLong("profileChanges[0].factId");
        as(alice).delete("/v1/profile/facts/{id}", factId).then().statusCode(200);
        assertThat(count("select count(*) from profile_event where before = ? or after = ?", secret, secret)).isZero();
        assertThat(count("select count(*) from promotion_candidate where text = ?", secret)).isZero();
    }

    private long count(String sql, Object... params) throws Exception {
        return SqlRows.count(db, sql, params);
    }

    private List<List<String>> rows(String sql, Object... params) throws Exception {
        return SqlRows.rows(db, sql, params);
    }
}
