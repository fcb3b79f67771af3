package dev.mnemos.session;

import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.quarkus.redis.datasource.stream.XAddArgs;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How history is stored (retention 10): plan bodies once, undo records of what each version changed
 * (never the whole state), a replay log trimmed while the session runs, and every version
 * within retention rebuilt exactly as it was read at the time, through plans, evaluations and rollbacks; older versions
 * answer Gone (410 over HTTP), newer ones still load.
 */
class SessionHistoryStorageTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.session.history-retention", "10")
            .overrideConfigKey("quarkus.mnemos.session.checkpoint-every", "4"));

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;

    @Test
    void aVersionsHistoryCostsWhatItChangedNotThePlanCount() {
        String few = sessionWithPlans(1);
        String many = sessionWithPlans(40);
        long small = undoBytes(few, 80);
        long large = undoBytes(many, 80);
        assertThat(small).as("undo record of a step that changed a collected key and the step pointer").isBetween(1L, 200L);
        assertThat(large).as("undo record of a session with 40 plans vs 1 plan").isLessThan(small + 40);
        assertThat(store.get(many).plans()).hasSize(40);
        assertThat(store.get(many).plans().get(39).content()).isEqualTo(plan(39));
    }

    @Test
    void aPlanIsStoredOnceItsLogEntryReferringToTheBody() {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("g").build()).by("t"))
                .sessionId();
        store.apply(StepWrite.of(id, SessionPatch.builder().addPlan(plan(7), 2.0, "ok").stepPointer(1, "s").build()).by("t"));
        StreamMessage<String, String, String> entry = redis.stream(String.class)
                .xrange(SessionKeys.events(id), StreamRange.of("2-0", "2-0")).get(0);
        assertThat(event(entry)).doesNotContain("plan 7 line").contains("\"score\":2.0");
        assertThat(redis.hash(String.class).hget(SessionKeys.plans(id), "b:" + entry.payload().get("p")))
                .endsWith("|" + plan(7));
        assertThat(store.events(id, 2, 10).get(0).patch().addPlan()).isEqualTo(new SessionPatch.NewPlan(plan(7), 2.0, "ok"));
        assertThat(store.at(id, 2).latestPlan().content()).isEqualTo(plan(7));

        // an entry written before plans were stored once holds the content itself, and still reads
        String earlier = "{\"type\":\"PATCH\",\"at\":\"2026-01-01T00:00:00Z\",\"actor\":\"t\","
                + "\"patch\":{\"addPlan\":{\"content\":\"inline plan\",\"score\":null,\"feedback\":null}}}";
        redis.stream(String.class).xadd(SessionKeys.events(id), new XAddArgs().id("3-0"), Map.of("e", earlier));
        assertThat(store.events(id, 3, 10).get(0).patch().addPlan().content()).isEqualTo("inline plan");
        store.delete(id);
    }

    @Test
    void aRollbackKeepsThePlanBodiesItSharesAndItsLogEntryNamesThemInsteadOfCopyingTheirText() {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("g").build()).by("t"))
                .sessionId();
        for (int i = 1; i <= 5; i++) {
            store.apply(StepWrite.of(id, SessionPatch.builder().addPlan(plan(i), null, null).build()).by("t"));
        }
        List<SessionState> seen = new ArrayList<>();
        seen.add(store.rollback(Rollback.of(id, 4).by("t")));
        assertThat(seen.get(0).plans()).extracting(PlanVersion::content).containsExactly(plan(1), plan(2), plan(3));
        assertThat(bodies(id)).as("plan bodies after rolling back to 3 of 5 plans").isEqualTo(5);
        StreamMessage<String, String, String> entry = entry(id, 7);
        assertThat(event(entry)).doesNotContain("line").contains("ROLLBACK");
        assertThat(entry.payload().get("b")).isEqualTo("1,2,3");

        // plan 4 is now another text than the rolled-back plan 4: a rollback past it stores plans 4 and 5 anew
        store.apply(StepWrite.of(id, SessionPatch.builder().addPlan("another plan 4", 1.0, "f").build()).by("t"));
        seen.add(store.get(id));
        seen.add(store.rollback(Rollback.of(id, 6).by("t")));
        assertThat(bodies(id)).isEqualTo(8);
        assertThat(entry(id, 9).payload().get("b")).isEqualTo("1,2,3,7,8");
        store.apply(StepWrite.of(id, SessionPatch.builder().addPlan("plan 6", null, null).evaluatePlan(4, 3.0, "g").build())
                .by("t"));
        seen.add(store.get(id));
        assertThat(seen.get(3).plans()).extracting(PlanVersion::content).containsExactly(plan(1), plan(2), plan(3),
                plan(4), plan(5), "plan 6");

        for (SessionState expected : seen) {
            assertThat(store.at(id, expected.version())).as("version %d", expected.version()).isEqualTo(expected);
        }
        assertThat(store.events(id, 9, 1).get(0).state()).isEqualTo(seen.get(2));
        SessionState fork = store.fork(Fork.of(id, 9).by("t"));
        assertThat(fork.plans()).isEqualTo(seen.get(2).plans());
        assertThat(store.events(fork.sessionId(), 1, 1).get(0).state()).isEqualTo(fork);
        assertThat(event(entry(fork.sessionId(), 1))).doesNotContain("line");
        store.delete(fork.sessionId());
        store.delete(id);
    }

    private StreamMessage<String, String, String> entry(String id, long version) {
        return redis.stream(String.class).xrange(SessionKeys.events(id), StreamRange.of(version + "-0", version + "-0"))
                .get(0);
    }

    /** A log entry's event JSON: {@code o} when its actor is the session's own (every entry of these tests), else {@code e}. */
    private static String event(StreamMessage<String, String, String> entry) {
        return entry.payload().getOrDefault("o", entry.payload().get("e"));
    }

    private long bodies(String id) {
        return redis.hash(String.class).hlen(SessionKeys.plans(id));
    }

    @Test
    void replayLogIsTrimmedToTheRetentionWindowWhileTheSessionRuns() {
        String id = sessionWithPlans(3);
        long entries = redis.stream(String.class).xlen(SessionKeys.events(id));
        assertThat(entries).as("entries kept of 81 versions (retention 10)").isEqualTo(10L);
        // versions 73 to 81 need their undo records: blocks of 16 versions, U4 (64-79) and U5 (80-95)
        assertThat(redis.hash(String.class).hkeys(SessionKeys.snapshots(id)).stream()
                .filter(f -> f.matches("[uU]\\d+"))).as("undo records kept, in blocks").containsExactlyInAnyOrder("U4", "U5");
        assertThat(store.events(id, 1, 100).get(0).version()).isLessThanOrEqualTo(72);
    }

    @Test
    void everyVersionWithinRetentionIsRebuiltAsItWasThroughPlansEvaluationsAndRollbacks() {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("g").build()).by("t"))
                .sessionId();
        List<SessionState> seen = new ArrayList<>();
        seen.add(store.get(id));
        Random random = new Random(13);
        for (int i = 0; i < 60; i++) {
            SessionState current = seen.get(seen.size() - 1);
            int pick = random.nextInt(10);
            if (pick == 0 && current.version() > 6) {
                store.rollback(Rollback.of(id, current.version() - 1 - random.nextInt(5)).by("t"));
            } else {
                SessionPatch.Builder patch = SessionPatch.builder().putCollected("k" + random.nextInt(4), "v" + i)
                        .stepPointer(i, "s");
                if (pick < 4) {
                    patch.addPlan(plan(i), null, null);
                }
                if (pick == 5 && current.latestPlan() != null) {
                    patch.evaluatePlan(1 + random.nextInt(current.plans().size()), (double) (i % 11), "f" + i);
                }
                if (pick == 6) {
                    patch.addConstraint(new Constraint(null, "c" + i, Scope.TASK, "user"));
                }
                store.apply(StepWrite.of(id, patch.build()).by("t"));
            }
            seen.add(store.get(id));
        }
        for (SessionState expected : seen.subList(seen.size() - 10, seen.size())) {
            assertThat(store.at(id, expected.version())).as("version %d", expected.version()).isEqualTo(expected);
            assertThat(store.at(id, expected.version(), 2)).isEqualTo(expected.newestPlans(2));
        }
        SessionState fork = store.fork(Fork.of(id, seen.get(seen.size() - 5).version()).by("t"));
        assertThat(fork.plans()).isEqualTo(seen.get(seen.size() - 5).plans());
        store.apply(StepWrite.of(fork.sessionId(), SessionPatch.builder().addPlan("next", null, null).build()).by("t"));
        assertThat(store.get(fork.sessionId()).latestPlan().content()).isEqualTo("next");
        assertThat(store.get(fork.sessionId()).plans()).hasSize(fork.plans().size() + 1);
        store.delete(fork.sessionId());
        store.delete(id);
    }

    private String sessionWithPlans(int plans) {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("g").build()).by("t"))
                .sessionId();
        for (int i = 0; i < 80; i++) {
            SessionPatch.Builder patch = SessionPatch.builder().putCollected("k" + (i % 5), "v").stepPointer(i, "s");
            if (i * plans / 80 != (i + 1) * plans / 80) {
                patch.addPlan(plan(i * plans / 80), null, null);
            }
            store.apply(StepWrite.of(id, patch.build()).by("t"));
        }
        return id;
    }

    private long undoBytes(String id, long version) {
        // the record's own bytes, packed alone, out of its block (version, pair count, pairs …)
        String script = "local b = cmsgpack.unpack(redis.call('HGET', KEYS[1], ARGV[1])) local i = 1 "
                + "while i <= #b do local n = b[i + 1] if b[i] == tonumber(ARGV[2]) then "
                + "return #cmsgpack.pack({unpack(b, i + 2, i + 1 + 2 * n)}) end i = i + 2 + 2 * n end return -1";
        return redis.execute("EVAL", script, "1", SessionKeys.snapshots(id), "U" + version / 16, Long.toString(version))
                .toLong();
    }

    private static String plan(int n) {
        return ("plan " + n + " line\n").repeat(50);
    }

    // retention

    @Test
    void rollbackBeyondRetentionIsGoneAndWithinRetentionWorks() {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), null).by("t")).sessionId();
        for (int i = 0; i < 30; i++) {
            store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("n", Integer.toString(i)).build()).by("t"));
        }
        assertThatThrownBy(() -> store.rollback(Rollback.of(id, 5).by("t")))
                .isInstanceOfSatisfying(VersionGoneException.class, e -> assertThat(e.oldest()).isEqualTo(22));
        assertThatThrownBy(() -> store.at(id, 21)).isInstanceOf(VersionGoneException.class);
        assertThat(store.get(id).version()).isEqualTo(31);
        assertThat(store.at(id, 22).collected()).containsEntry("n", "20");
        assertThat(store.rollback(Rollback.of(id, 25).by("t")).collected()).containsEntry("n", "23");
    }

    @Test
    void rollbackBeyondRetentionAnswers410OverHttp() {
        String user = "u-" + SessionIds.newId();
        String id = store.create(NewSession.of(user, null).by("t")).sessionId();
        for (int i = 0; i < 20; i++) {
            store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("n", Integer.toString(i)).build()).by("t"));
        }
        RestAssured.given().auth().oauth2(Tokens.user(user))
                .contentType(ContentType.JSON).body(Map.of("toVersion", 3))
                .post("/v1/sessions/{id}/rollback", id).then().statusCode(410)
                .contentType("application/problem+json").body("oldestVersion", Matchers.equalTo(12))
                .body("detail", Matchers.containsString("retention"));
        assertThat(store.get(id).version()).isEqualTo(21);
    }
}
