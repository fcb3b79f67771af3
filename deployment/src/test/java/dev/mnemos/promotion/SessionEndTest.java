package dev.mnemos.promotion;

import dev.mnemos.profile.Topics;
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
import java.util.Collection;
import java.util.LinkedHashMap;
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
 * A session's end with the server's settings (Mnemos' deterministic extraction, reconcile and summaries; rewordings
 * found with the in-process embedding model). The behaviours that share this configuration share one application (an
 * application start is most of a test class's time); each test is a user of its own, so none depends on another:
 * <ul>
 * <li>its observations promoted, rejected with reasons or left pending, the session archived and cleared from Redis and
 * still replayable, only by its owner, concurrent ends of one user's sessions, and the owner's answer to pending
 * candidates;</li>
 * <li>promotion beyond the three slots and identical text: clauses, repetition, contradictions, events;</li>
 * <li>a user's own facts outrank any session (issue 51, item 3): a fact the user stated through the profile API, or
 * confirmed, is changed only by the user; a session's correction of it waits for the user's confirmation;
 * contradictions and near-duplicates are never both active after a session end;</li>
 * <li>"forget …" said in a conversation is a forget request, never a fact (issue 51, item 4), in every shipped
 * language: the end leaves it pending, the fact it names stays until the user confirms, and the confirmation forgets
 * the fact as the profile's forget does, leaving its text nowhere;</li>
 * <li>forget is final: a forgotten text, and its rewordings, never come back from a session end, a pending candidate or
 * an import; only the user's own statement after the forget brings it back.</li>
 * </ul>
 */
class SessionEndTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings());

    /** What the user typed into the profile. */
    static final List<String> TYPED = List.of("I am vegetarian", "I hate jazz music", "I do not eat red meat",
            "I live in Boston", "I am allergic to peanuts", "I prefer window seats", "I have two kids",
            "Always answer in English");

    /** A session's statements that correct, repeat or contradict them, or each other. */
    static final List<String> SAID = List.of("I love jazz music", "From now on I eat red meat",
            "From now on I do not eat red meat", "I've moved, I live in Denver now", "I am not vegetarian",
            "From now on always answer in French", "I always take the night train", "I never take the night train",
            "From now on I like spicy food", "I always like spicy food");

    /** Per shipped language: a fact, and a request to forget it. */
    static final Map<String, List<String>> LANGUAGES = Map.of(
            "en", List.of("I live in Boston", "forget that I live in Boston"),
            "zh", List.of("我住在北京", "忘记我住在北京"),
            "es", List.of("Vivo en Madrid", "Olvida que vivo en Madrid"),
            "de", List.of("Ich wohne in Berlin", "Vergiss, dass ich in Berlin wohne"),
            "fr", List.of("J'habite à Lyon", "Oublie que j'habite à Lyon"),
            "ja", List.of("東京に住んでいる", "東京に住んでいることを忘れて"));

    private static final String CAPTAIN = "From now on call me Captain";
    /** Rewordings of {@link #CAPTAIN}: one with the same normalised text, one near by embedding. */
    private static final List<String> REWORDINGS = List.of("From now on, call me captain!",
            "Please call me Captain from now on");

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

    // promotion beyond the three slots and identical text

    private JsonPath session(String text, boolean explicit) {
        String s = start(alice);
        observe(alice, s, text, null, explicit);
        return end(alice, s);
    }

    @Test
    void contradictionWithoutASlotSupersedesTheOldFactAndIsAudited() throws Exception {
        assertThat(session("I don't eat red meat", true).getList("promoted.text", String.class))
                .containsExactly("I don't eat red meat");
        JsonPath later = session("From now on red meat is fine", true);
        assertThat(later.getString("profileChanges[0].action")).isEqualTo("PROMOTE");
        assertThat(later.getString("profileChanges[0].before")).isEqualTo("I don't eat red meat");
        assertThat(later.getString("profileChanges[0].reason")).startsWith("replaces fact ");
        assertThat(profile()).containsExactly("From now on red meat is fine");
        assertThat(SqlRows.rows(db,
                "select status, (valid_to is not null)::text from profile_fact where user_id = ? and text = ?", alice,
                "I don't eat red meat")).containsExactly(List.of("SUPERSEDED", "true"));
        as(alice).get("/v1/profile/history").then().statusCode(200)
                .body("events.find { it.before == \"I don't eat red meat\" }.after", equalTo("From now on red meat is fine"));
    }

    @Test
    void aRequestRunOnIntoAStatementPromotesOnlyTheStatement() {
        JsonPath ended = session("Book a table for Friday I'm vegetarian", true);
        assertThat(ended.getList("promoted.text", String.class)).containsExactly("I'm vegetarian");
        assertThat(ended.getList("rejected.text", String.class)).containsExactly("Book a table for Friday");
        assertThat(session("订去成都的机票我从来不坐红眼航班", true).getList("promoted.text", String.class))
                .containsExactly("我从来不坐红眼航班");
        assertThat(profile()).noneMatch(f -> f.contains("Friday") || f.contains("成都"));
    }

    @Test
    void aStatementWithoutIIsStillAboutTheUser() {
        assertThat(session("Allergic to shellfish", true).getList("promoted.text", String.class))
                .containsExactly("Allergic to shellfish");
        assertThat(session("Find flights to Madrid — not a fan of middle seats", true).getList("promoted.text", String.class))
                .containsExactly("not a fan of middle seats");
        assertThat(session("Window seats for both of us", true).getList("rejected.text", String.class))
                .containsExactly("Window seats for both of us");
    }

    @Test
    void unrelatedFactsOfOppositePolarityBothStay() {
        session("I don't eat red meat", true);
        session("I love red wine", true);
        assertThat(profile()).containsExactlyInAnyOrder("I don't eat red meat", "I love red wine");
    }

    @Test
    void aMoveSupersedesTheHomeSlot() {
        session("I live in Boston", true);
        JsonPath moved = session("I've moved, I live in Denver now", true);
        assertThat(moved.getString("profileChanges[0].before")).isEqualTo("I live in Boston");
        as(alice).get("/v1/profile").then().body("facts.text", equalTo(List.of("I've moved, I live in Denver now")))
                .body("facts[0].slot", equalTo("home.location"));
    }

    @Test
    void rewordedRepetitionsAcrossThreeSessionsAddUp() {
        List<String> wordings = List.of("I'd rather take the train than fly", "I prefer the train to flying",
                "I'd rather go by train than by plane");
        assertThat(session(wordings.get(0), false).getList("pending.text", String.class)).containsExactly(wordings.get(0));
        assertThat(session(wordings.get(1), false).getList("pending.text", String.class)).containsExactly(wordings.get(1));
        assertThat(profile()).isEmpty();
        JsonPath third = session(wordings.get(2), false);
        assertThat(third.getList("promoted.text", String.class)).containsExactly(wordings.get(2));
        assertThat(third.getString("promoted[0].reason")).contains("3 of 3 sessions");
        assertThat(profile()).containsExactly(wordings.get(2));
        as(alice).get("/v1/profile/pending").then().body("$", hasSize(0));
    }

    @Test
    void differentPreferencesOnOneSubjectDoNotAddUp() {
        session("I prefer aisle seats", false);
        session("I prefer window seats", false);
        JsonPath third = session("I prefer aisle seats on long flights", false);
        assertThat(third.getList("promoted")).isEmpty();
        assertThat(profile()).isEmpty();
    }

    @Test
    void aRepeatedTaskConstraintNeverReachesTheProfile() {
        for (String text : List.of("Use a table for this comparison", "use a table for this comparison!",
                "The hotel needs free parking", "The hotel needs free parking", "The hotel needs free parking")) {
            JsonPath report = session(text, true);
            assertThat(report.getList("rejected.text", String.class)).as(text).containsExactly(text);
            assertThat(report.getString("rejected[0].reason")).startsWith("task-scoped");
        }
        session("Use a table for this comparison", false);
        assertThat(profile()).isEmpty();
        as(alice).get("/v1/profile/pending").then().body("$", hasSize(0));
    }

    @Test
    void aMixedSentenceIsDecidedClauseByClause() {
        JsonPath report = session("For this report use bullet points, and always cite sources", true);
        assertThat(report.getList("promoted.text", String.class)).containsExactly("always cite sources");
        assertThat(report.getList("rejected.text", String.class)).containsExactly("For this report use bullet points");
        assertThat(report.getList("promoted.observationId")).hasSize(1).doesNotContainNull();
        assertThat(profile()).containsExactly("always cite sources");
    }

    @Test
    void eventsAreNotPreferencesButRememberedPropertiesAre() {
        JsonPath event = session("Remember that my flight was moved to 9 am", true);
        assertThat(event.getList("rejected.text", String.class)).containsExactly("Remember that my flight was moved to 9 am");
        assertThat(event.getString("rejected[0].reason")).contains("event");
        JsonPath standing = session("Remember I'm vegetarian", true);
        assertThat(standing.getList("promoted.text", String.class)).containsExactly("Remember I'm vegetarian");
        assertThat(profile()).containsExactly("Remember I'm vegetarian");
    }

    @Test
    void habitsAreStandingAndABudgetInsideAStandingStatementDoesNotMakeItTaskScoped() {
        JsonPath report = session("I'm always on a tight budget, so prefer cheap options", true);
        assertThat(report.getList("promoted.text", String.class))
                .containsExactly("I'm always on a tight budget, so prefer cheap options");
        for (String habit : List.of("I never take night buses", "As a rule, no layovers over three hours", "我一般不吃辣",
                "我从来不坐红眼航班", "I no longer drink coffee")) {
            assertThat(session(habit, true).getList("promoted.text", String.class)).as(habit).containsExactly(habit);
        }
    }

    @Test
    void aNegationReplacesWhatItNegates() {
        session("I always drink coffee in the morning", true);
        JsonPath report = session("I no longer drink coffee", true);
        assertThat(report.getString("profileChanges[0].before")).isEqualTo("I always drink coffee in the morning");
        assertThat(profile()).containsExactly("I no longer drink coffee");
    }

    // a user's own facts outrank any session

    @Test
    void aLongSessionChangesNoneOfTheUsersFactsAndLeavesNoContradictionOrNearDuplicate() throws Exception {
        Map<Long, String> typed = new LinkedHashMap<>();
        for (String text : TYPED) {
            typed.put(add(text), text);
        }
        String s = start(alice);
        for (String text : SAID) {
            observe(alice, s, text, null, true);
        }
        for (int i = 0; i < 60 - SAID.size(); i++) {
            observe(alice, s, "Find a hotel near the station for night " + i, null, true);
        }
        JsonPath report = end(alice, s);

        Map<Long, String> active = active();
        assertThat(active).as("every fact the user typed, unchanged").containsAllEntriesOf(typed);
        assertThat(report.getList("pending.text", String.class)).as("each correction of a typed fact waits for the user")
                .contains("I love jazz music", "From now on I eat red meat", "I've moved, I live in Denver now",
                        "I am not vegetarian", "From now on always answer in French");
        long jazz = typed.entrySet().stream().filter(e -> e.getValue().equals("I hate jazz music")).findFirst().orElseThrow()
                .getKey();
        assertThat(report.getString("pending.find { it.text == 'I love jazz music' }.reason"))
                .as("the reason names the fact, not its text (which the user may forget)")
                .contains("fact " + jazz, "you stated").doesNotContain("jazz");
        assertThat(SqlRows.count(db, "select count(*) from profile_fact where user_id = ? and status = 'SUPERSEDED'",
                alice)).as("no fact superseded by the end").isZero();
        assertNoContradictionNorNearDuplicate(active.values());
    }

    @Test
    void aConfirmedCorrectionReplacesTheTypedFactAndIsThenTheUsersOwn() throws Exception {
        long meat = add("I do not eat red meat");
        String s = start(alice);
        observe(alice, s, "From now on I eat red meat", null, true);
        long candidate = end(alice, s).getLong("pending.find { it.text == 'From now on I eat red meat' }.candidateId");
        assertThat(active()).containsExactly(Map.entry(meat, "I do not eat red meat"));

        JsonPath confirmed = as(alice).post("/v1/profile/pending/{id}/confirm", candidate).then().statusCode(200).extract()
                .jsonPath();
        assertThat(confirmed.getString("profileChanges.find { it.after == 'From now on I eat red meat' }.before"))
                .as("the user's confirmation replaces the fact it contradicts").isEqualTo("I do not eat red meat");
        assertThat(active().values()).containsExactly("From now on I eat red meat");

        String later = start(alice);
        observe(alice, later, "From now on I never eat red meat", null, true);
        JsonPath report = end(alice, later);
        assertThat(report.getList("promoted")).as("a confirmed fact is the user's own").isEmpty();
        assertThat(report.getList("pending.text", String.class)).containsExactly("From now on I never eat red meat");
        assertThat(active().values()).containsExactly("From now on I eat red meat");
    }

    @Test
    void aFactASessionPromotedStillGivesWayToALaterSession() throws Exception {
        String first = start(alice);
        observe(alice, first, "From now on I do not eat red meat", null, true);
        observe(alice, first, "I live in Boston", null, true);
        observe(alice, first, "I always take the night train", null, true);
        assertThat(end(alice, first).getList("promoted.text", String.class)).hasSize(3);
        String second = start(alice);
        observe(alice, second, "From now on I eat red meat", null, true);
        observe(alice, second, "I've moved, I live in Denver now", null, true);
        observe(alice, second, "From now on I take the night train", null, true);
        JsonPath report = end(alice, second);
        assertThat(report.getList("profileChanges.before", String.class)).contains("From now on I do not eat red meat",
                "I live in Boston");
        assertThat(report.getList("profileChanges.findAll { it.action == 'MERGE' }.after", String.class))
                .as("said again: evidence, not a second fact").containsExactly("I always take the night train");
        assertThat(active().values()).containsExactlyInAnyOrder("From now on I eat red meat",
                "I've moved, I live in Denver now", "I always take the night train");
        assertNoContradictionNorNearDuplicate(active().values());
    }

    @Test
    void twoStatementsOfOneSessionThatContradictEachOtherBothWaitAndOneSaidTwiceIsOneFact() {
        String s = start(alice);
        observe(alice, s, "I always take the night train", null, true);
        observe(alice, s, "I never take the night train", null, true);
        observe(alice, s, "From now on I like spicy food", null, true);
        observe(alice, s, "I like spicy food", null, true);
        JsonPath report = end(alice, s);
        assertThat(report.getList("pending.text", String.class)).containsExactlyInAnyOrder("I always take the night train",
                "I never take the night train");
        assertThat(report.getList("pending.reason", String.class)).allMatch(r -> r.contains("another statement"));
        assertThat(active().values()).containsExactly("From now on I like spicy food");
    }

    private long add(String text) {
        return as(alice).body(Map.of("text", text)).post("/v1/profile/facts").then().statusCode(201).extract().jsonPath()
                .getLong("changes.find { it.after == '" + text + "' }.factId");
    }

    private Map<Long, String> active() {
        JsonPath profile = as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath();
        Map<Long, String> facts = new LinkedHashMap<>();
        List<Long> ids = profile.getList("facts.id", Long.class);
        List<String> texts = profile.getList("facts.text", String.class);
        for (int i = 0; i < ids.size(); i++) {
            facts.put(ids.get(i), texts.get(i));
        }
        return facts;
    }

    /**
     * No two active facts contradict (opposite polarity, 60 % of the smaller topic's words shared) or repeat each other
     * (same polarity, the same topic words), as the markers read them.
     */
    private static void assertNoContradictionNorNearDuplicate(Collection<String> facts) {
        List<String> all = new ArrayList<>(facts);
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                String a = all.get(i);
                String b = all.get(j);
                String topicA = Markers.DEFAULT.topic(a);
                String topicB = Markers.DEFAULT.topic(b);
                if (Markers.DEFAULT.negative(a) != Markers.DEFAULT.negative(b)) {
                    assertThat(Topics.overlap(topicA, topicB)).as("'%s' contradicts '%s', both active", a, b).isLessThan(0.6);
                } else {
                    assertThat(Topics.tokens(topicA)).as("'%s' repeats '%s', both active", a, b)
                            .isNotEqualTo(Topics.tokens(topicB));
                }
            }
        }
    }

    // "forget …" said in a session is a request to forget

    @Test
    void forgetThatILiveInBostonIsAForgetRequestAndItsConfirmationForgetsTheFact() throws Exception {
        as(alice).body(Map.of("text", "I live in Boston")).post("/v1/profile/facts").then().statusCode(201);
        String s = start(alice);
        observe(alice, s, "forget that I live in Boston", null, true);
        observe(alice, s, "From now on answer with bullet points", null, true);
        JsonPath report = end(alice, s);

        assertThat(report.getList("promoted.text", String.class)).containsExactly("From now on answer with bullet points");
        assertThat(report.getList("pending.text", String.class)).containsExactly("forget that I live in Boston");
        assertThat(report.getString("pending[0].reason")).contains("request to forget");
        assertThat(profile()).as("nothing is forgotten before the user confirms").containsExactlyInAnyOrder(
                "I live in Boston", "From now on answer with bullet points");

        long candidate = report.getLong("pending[0].candidateId");
        as(alice).post("/v1/profile/pending/{id}/confirm", candidate).then().statusCode(200);
        assertThat(profile()).containsExactly("From now on answer with bullet points");
        assertThat(as(alice).get("/v1/profile/pending").then().statusCode(200).extract().jsonPath().getList("id"))
                .isEmpty();
        assertThat(SqlRows.count(db, "select count(*) from profile_fact where user_id = ? and text like ?", alice,
                "%Boston%")).as("no fact keeps the text").isZero();
        assertThat(SqlRows.count(db, "select count(*) from promotion_candidate where user_id = ? and text like ?", alice,
                "%Boston%")).as("no candidate keeps it").isZero();
        assertThat(SqlRows.count(db,
                "select count(*) from profile_event where user_id = ? and (before like ? or after like ? or reason like ?)",
                alice, "%Boston%", "%Boston%", "%Boston%")).as("no audit event quotes it").isZero();
    }

    @Test
    void aForgetRequestIsNeverAFactInAnyShippedLanguage() {
        LANGUAGES.forEach((language, pair) -> {
            String user = alice + "-" + language;
            as(user).body(Map.of("text", pair.get(0))).post("/v1/profile/facts").then().statusCode(201);
            String s = start(user);
            observe(user, s, pair.get(1), null, true);
            JsonPath report = end(user, s);
            assertThat(report.getList("promoted")).as(language).isEmpty();
            assertThat(report.getList("pending.text", String.class)).as(language).containsExactly(pair.get(1));
            assertThat(texts(user)).as(language).containsExactly(pair.get(0));

            as(user).post("/v1/profile/pending/{id}/confirm", report.getLong("pending[0].candidateId")).then()
                    .statusCode(200);
            assertThat(texts(user)).as(language + ": the confirmation forgets the fact").isEmpty();
        });
    }

    @Test
    void rejectingAForgetRequestKeepsTheFact() {
        as(alice).body(Map.of("text", "I live in Boston")).post("/v1/profile/facts").then().statusCode(201);
        String s = start(alice);
        observe(alice, s, "Please forget that I live in Boston.", null, true);
        long candidate = end(alice, s).getLong("pending[0].candidateId");
        as(alice).post("/v1/profile/pending/{id}/reject", candidate).then().statusCode(200);
        assertThat(profile()).containsExactly("I live in Boston");
    }

    private static List<String> texts(String user) {
        return as(user).get("/v1/profile").then().statusCode(200).extract().jsonPath().getList("facts.text", String.class);
    }

    // forget is final

    @Test
    void aForgottenFactIsNeverPromotedAgainFromLiveSessions() throws Exception {
        String first = start(alice);
        observe(alice, first, CAPTAIN, null, true);
        List<String> live = List.of(start(alice), start(alice), start(alice));
        observe(alice, live.get(0), CAPTAIN, null, true);
        observe(alice, live.get(1), REWORDINGS.get(0), null, true);
        observe(alice, live.get(2), REWORDINGS.get(1), null, true);
        observe(alice, live.get(2), "From now on answer with bullet points", null, true);
        long factId = end(alice, first).getLong("profileChanges[0].factId");
        assertThat(profile()).containsExactly(CAPTAIN);

        as(alice).delete("/v1/profile/facts/{id}", factId).then().statusCode(200);

        List<JsonPath> reports = new ArrayList<>();
        for (String session : live) {
            reports.add(end(alice, session));
        }
        String later = start(alice);
        observe(alice, later, CAPTAIN, null, true);
        reports.add(end(alice, later));
        long repromoted = reports.stream().flatMap(r -> r.getList("promoted.text", String.class).stream())
                .filter(t -> t.equals(CAPTAIN) || REWORDINGS.contains(t)).count();
        assertThat(repromoted).as("re-promotions after forget").isZero();
        assertThat(reports).as("each report says why").allMatch(r -> r.getList("rejected.reason", String.class).stream()
                .anyMatch(reason -> reason.contains("forgotten")));
        assertThat(profile()).as("an unrelated standing preference still lands")
                .containsExactly("From now on answer with bullet points");
        assertThat(count("select count(*) from profile_fact where user_id = ? and text in (?, ?, ?)", alice, CAPTAIN,
                REWORDINGS.get(0), REWORDINGS.get(1))).isZero();
        assertThat(count("select count(*) from promotion_candidate where user_id = ? and text in (?, ?, ?)", alice,
                CAPTAIN, REWORDINGS.get(0), REWORDINGS.get(1))).as("no candidate keeps the forgotten text").isZero();
        assertThat(count("select count(*) from profile_event where user_id = ? and (before in (?, ?, ?) or after in (?, ?, ?))",
                alice, CAPTAIN, REWORDINGS.get(0), REWORDINGS.get(1), CAPTAIN, REWORDINGS.get(0), REWORDINGS.get(1)))
                .as("no audit event quotes it").isZero();
    }

    @Test
    void forgettingDropsThePendingCandidatesOfTheTextAndItsRewordings() throws Exception {
        String s = start(alice);
        observe(alice, s, "I like aisle seats", null, false);
        observe(alice, s, "I prefer aisle seats", null, false);
        observe(alice, s, "I like the colour green", null, false);
        end(alice, s);
        long fact = as(alice).body(Map.of("text", "I like aisle seats")).post("/v1/profile/facts").then().statusCode(201)
                .extract().jsonPath().getLong("changes[0].factId");
        as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);
        assertThat(as(alice).get("/v1/profile/pending").then().statusCode(200).extract().jsonPath()
                .getList("text", String.class)).containsExactly("I like the colour green");
    }

    @Test
    void neitherAnImportNorAnInstructionRecordedBeforeBringsItBack() throws Exception {
        long fact = as(alice).body(Map.of("text", "My wife is called Anna")).post("/v1/profile/facts").then()
                .statusCode(201).extract().jsonPath().getLong("changes[0].factId");
        as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);
        as(alice).body(Map.of("text", "- My wife is called Anna\n- My wife's name is Anna\n- Enjoys hiking"))
                .post("/v1/profile/import").then().statusCode(200);
        assertThat(profile()).containsExactly("Enjoys hiking");
    }

    @Test
    void theUsersOwnStatementAfterTheForgetBringsItBack() {
        long fact = as(alice).body(Map.of("text", CAPTAIN)).post("/v1/profile/facts").then().statusCode(201)
                .extract().jsonPath().getLong("changes[0].factId");
        as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);
        as(alice).body(Map.of("instruction", "remember " + CAPTAIN)).post("/v1/profile/instruct").then().statusCode(200);
        assertThat(profile()).containsExactly(CAPTAIN);
        long again = as(alice).get("/v1/profile").then().extract().jsonPath().getLong("facts[0].id");
        as(alice).delete("/v1/profile/facts/{id}", again).then().statusCode(200);
        as(alice).body(Map.of("text", CAPTAIN)).post("/v1/profile/facts").then().statusCode(201);
        as(alice).delete("/v1/profile/facts/{id}", as(alice).get("/v1/profile").then().extract().jsonPath()
                .getLong("facts[0].id")).then().statusCode(200);
        as(alice).body(Map.of("text", CAPTAIN)).post("/v1/profile/facts").then().statusCode(201);
        String s = start(alice);
        observe(alice, s, CAPTAIN, null, true);
        end(alice, s);
        assertThat(profile()).as("stated anew, then seen again: one fact").containsExactly(CAPTAIN);
    }

    private long count(String sql, Object... params) throws Exception {
        return SqlRows.count(db, sql, params);
    }

    private List<List<String>> rows(String sql, Object... params) throws Exception {
        return SqlRows.rows(db, sql, params);
    }
}
