package dev.mnemos.server.api;

import dev.langchain4j.data.message.SystemMessage;
import dev.mnemos.injection.ActingAs;
import dev.mnemos.injection.SessionMemoryUnavailableException;
import dev.mnemos.injection.StepNotStoredException;
import dev.mnemos.profile.ProfileRepository;
import dev.mnemos.profile.ProfileRevisions;
import dev.mnemos.server.support.OwnedRedis;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.testsupport.FreePorts;
import dev.mnemos.testsupport.Tokens;
import dev.mnemos.testsupport.TripAi;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Faults on a redis-server this test owns (on a free port, append-only file fsynced on every write):
 * paused with SIGSTOP under concurrent writes, then killed with SIGKILL and restarted on its data.
 * Each fault is counted: acknowledged writes present afterwards, writes answered 503 applied exactly
 * once after a retry with the same Idempotency-Key, no answer of 500 or more other than 503, a
 * Retry-After on every 503, and service back after the fault.
 */
@QuarkusTest
@TestProfile(RedisFaultTest.Faults.class)
class RedisFaultTest {

    static final int WRITERS = 8;

    public static class Faults implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.mnemos.session.redis-timeout", "1s", "quarkus.mnemos.session.slow-redis-timeout", "2s");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(FaultRedis.class));
        }
    }

    /** Started before Quarkus so its URL is the application's Redis; stopped when Quarkus stops. */
    public static class FaultRedis implements QuarkusTestResourceLifecycleManager {
        static OwnedRedis redis;

        @Override
        public Map<String, String> start() {
            redis = new OwnedRedis(FreePorts.one()).start();
            return Map.of("quarkus.redis.hosts", redis.url());
        }

        @Override
        public void stop() {
            if (redis != null) {
                redis.close();
                redis = null;
            }
        }
    }

    @AfterAll
    static void stopRedis() {
        if (FaultRedis.redis != null) {
            FaultRedis.redis.close();
            FaultRedis.redis = null;
        }
    }

    final String user = "fault-" + UUID.randomUUID();

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    MeterRegistry registry;
    @Inject
    RedisDataSource redis;
    @Inject
    ProfileRepository profiles;

    RequestSpecification as() {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    /** One step write with its own key; the note names it in the replay log. */
    ExtractableResponse<Response> step(String id, String key) {
        return as().header("Idempotency-Key", key)
                .body(Map.of("patch", Map.of("putCollected", Map.of(key, "v")), "note", key))
                .post("/v1/sessions/{id}/steps", id).then().extract();
    }

    /** Counts of what one fault produced. */
    static final class Tally {
        final List<String> acknowledged = new ArrayList<>();
        final List<String> unavailable = new ArrayList<>();
        /** Writes whose 503 said "nothing was written" (the connection was refused). */
        final List<String> notWritten = new ArrayList<>();
        /** 503s of writes that said neither "nothing was written" nor "may or may not have been applied". */
        int untruthful;
        int otherServerErrors;
        int withoutRetryAfter;

        void count(String key, ExtractableResponse<Response> answer) {
            if (answer.statusCode() == 200) {
                acknowledged.add(key);
            } else if (answer.statusCode() == 503) {
                unavailable.add(key);
                if (answer.header("Retry-After") == null) {
                    withoutRetryAfter++;
                }
                String detail = answer.jsonPath().getString("detail");
                if (detail.contains("nothing was written")) {
                    notWritten.add(key);
                } else if (!detail.contains("may or may not have been applied")) {
                    untruthful++;
                }
            } else if (answer.statusCode() >= 500) {
                otherServerErrors++;
            }
        }
    }

    /** Writes every key concurrently and waits for every answer. */
    Tally writeConcurrently(String id, String prefix) throws Exception {
        Tally tally = new Tally();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<ExtractableResponse<Response>>> answers = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                String key = prefix + i;
                answers.add(pool.submit(() -> step(id, key)));
            }
            for (int i = 0; i < WRITERS; i++) {
                tally.count(prefix + i, answers.get(i).get());
            }
        } finally {
            pool.shutdownNow();
        }
        return tally;
    }

    /** Retries a write answered 503 with the same key until it is answered otherwise; @return its version */
    long retry(String id, String key) {
        for (int attempt = 0; attempt < 20; attempt++) {
            ExtractableResponse<Response> answer = step(id, key);
            if (answer.statusCode() == 200) {
                return answer.jsonPath().getLong("version");
            }
            assertThat(answer.statusCode()).as("a retry answers 200 or 503, got %s", answer.asString()).isEqualTo(503);
            assertThat(answer.header("Retry-After")).isNotNull();
        }
        throw new AssertionError("the retry of " + key + " never succeeded after the fault");
    }

    /** Every event's note with its version, read page by page. */
    Map<String, List<Long>> notes(String id) {
        Map<String, List<Long>> notes = new HashMap<>();
        String cursor = null;
        do {
            RequestSpecification request = as().queryParam("limit", 5);
            if (cursor != null) {
                request = request.queryParam("cursor", cursor);
            }
            ExtractableResponse<Response> page = request.get("/v1/sessions/{id}/versions", id).then().statusCode(200)
                    .extract();
            List<Map<String, Object>> entries = page.jsonPath().getList("$");
            for (Map<String, Object> entry : entries) {
                notes.computeIfAbsent(String.valueOf(entry.get("note")), n -> new ArrayList<>())
                        .add(((Number) entry.get("version")).longValue());
            }
            cursor = page.header("Mnemos-Next-Cursor");
        } while (cursor != null);
        return notes;
    }

    String createSession() {
        return as().body(Map.of("goal", "survive")).post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
    }

    @Test
    void pausedRedisWritesAreAppliedAtMostOnceAfterARetry() throws Exception {
        String id = createSession();
        Tally before = writeConcurrently(id, "pre-");
        assertThat(before.acknowledged).hasSize(WRITERS);

        Tally during;
        FaultRedis.redis.pause();
        try {
            during = writeConcurrently(id, "paused-");
            ExtractableResponse<Response> read = as().get("/v1/sessions/{id}", id).then().extract();
            assertThat(read.statusCode()).isEqualTo(503);
            assertThat(read.header("Retry-After")).isNotNull();
            // a write that needs a new step connection, which a paused Redis cannot open: its 503 says
            // nothing was written (checked below); one sent on an open connection says it may have been
            during.count("paused-probe", step(id, "paused-probe"));
            // an AI-service step: its session load waits at most redis-timeout, then fails before the model
            model.reset();
            assertThatThrownBy(() -> ActingAs.user(user).call(() -> ai.chat(id, "anything while Redis is paused")))
                    .isInstanceOf(SessionMemoryUnavailableException.class);
            assertThat(model.requests()).as("no model call without memory").isEmpty();
        } finally {
            FaultRedis.redis.resume();
        }
        assertThat(during.otherServerErrors).as("answers >= 500 other than 503").isZero();
        assertThat(during.withoutRetryAfter).as("503s without Retry-After").isZero();
        assertThat(during.unavailable).as("every write timed out while Redis was paused").hasSize(WRITERS + 1);
        assertThat(during.untruthful).isZero();
        System.out.printf("RedisFaultTest pause: %d acknowledged before, %d answered 503 (outcome unknown)%n",
                before.acknowledged.size(), during.unavailable.size());

        // The race the 503 warns about: Redis runs the timed-out writes once it resumes. Wait for
        // that (the session's version), so every retry below meets a write already applied. A write
        // answered "nothing was written" never reached Redis (the step connection it needed could not
        // be opened while Redis was paused): it must not appear.
        int expected = 1 + WRITERS + during.unavailable.size() - during.notWritten.size();
        int version = 0;
        for (int poll = 0; poll < 500 && version < expected; poll++) {
            version = as().get("/v1/sessions/{id}", id).then().extract().jsonPath().getInt("version");
        }
        assertThat(version).as("the writes answered 503 were applied after the pause").isEqualTo(expected);
        Map<String, List<Long>> resumed = notes(id);
        for (String key : during.notWritten) {
            assertThat(resumed).as("write %s, answered \"nothing was written\"", key).doesNotContainKey(key);
        }

        Map<String, Long> retried = new HashMap<>();
        for (String key : during.unavailable) {
            retried.put(key, retry(id, key));
        }
        Map<String, List<Long>> notes = notes(id);
        for (String key : before.acknowledged) {
            assertThat(notes.get(key)).as("acknowledged write %s present once", key).hasSize(1);
        }
        for (String key : during.unavailable) {
            assertThat(notes.get(key)).as("write %s, answered 503 then retried, applied exactly once", key)
                    .containsExactly(retried.get(key));
        }
        as().get("/v1/sessions/{id}", id).then().statusCode(200)
                .body("version", Matchers.equalTo(expected + during.notWritten.size()));
    }

    /**
     * The profile does not depend on Redis: a write while Redis is paused is committed and answered
     * (its revision copy could not be raised: counted); once Redis resumes, a step sees the new fact.
     */
    @Test
    void aProfileWriteWhileRedisIsPausedIsCommittedAndAStepAfterwardsSeesIt() {
        as().body(Map.of("text", "prefers window seats", "category", "PREFERENCE")).post("/v1/profile/facts").then()
                .statusCode(Matchers.lessThan(300));
        String id = createSession();
        model.reset();
        model.script(request -> "noted");
        ActingAs.user(user).call(() -> ai.chat(id, "hello"));
        double missedBefore = missedCopies();
        FaultRedis.redis.pause();
        try {
            as().body(Map.of("text", "travels with a bicycle", "category", "PREFERENCE")).post("/v1/profile/facts")
                    .then().statusCode(Matchers.lessThan(300));
            as().get("/v1/profile").then().statusCode(200)
                    .body("facts.text", Matchers.hasItem("travels with a bicycle"));
        } finally {
            FaultRedis.redis.resume();
        }
        assertThat(missedCopies()).as("the copy that could not be raised is counted").isEqualTo(missedBefore + 1);
        // the raise was sent before it timed out: a paused Redis runs it on resuming (a lost one would
        // leave steps on the previous facts until the copy expires, which SessionMemoryStepsTest shows)
        String revision = Long.toString(profiles.revision(user)); // the second write's
        String copy = null;
        for (int poll = 0; poll < 500 && !revision.equals(copy); poll++) {
            copy = redis.value(String.class).get(ProfileRevisions.key(user));
        }
        assertThat(copy).isEqualTo(revision);
        ActingAs.user(user).call(() -> ai.chat(id, "what do you know about me?"));
        String block = ((SystemMessage) model.requests().get(model.requests().size() - 1)
                .messages().get(0)).text();
        assertThat(block).contains("travels with a bicycle").contains("prefers window seats");
    }

    double missedCopies() {
        Counter counter = registry.find("mnemos.profile.revision.copy.failures").counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void durabilityOfTheOwnedRedisIsReportedSafe() {
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'Mnemos session durability (Redis)' }.status",
                        Matchers.equalTo("UP"))
                .body("checks.find { it.name == 'Mnemos session durability (Redis)' }.data.appendonly",
                        Matchers.equalTo("yes"))
                .body("checks.find { it.name == 'Mnemos session durability (Redis)' }.data.appendfsync",
                        Matchers.equalTo("always"))
                .body("checks.find { it.name == 'Mnemos session durability (Redis)' }.data.sessionsSurviveRestart",
                        Matchers.equalTo("true"));
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).containsPattern("mnemos_redis_persistence\\{[^}]*setting=\"appendonly\"[^}]*\\} 1")
                .containsPattern(
                        "mnemos_redis_persistence\\{[^}]*safe=\"true\"[^}]*setting=\"appendfsync\"[^}]*value=\"always\"");
    }

    /**
     * The client's connections opened before a restart are dead after it: the first step still succeeds (the
     * client reconnects), and so do the ones after it.
     */
    @Test
    void stepsRightAfterARedisRestartSucceed() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(createSession());
        }
        model.reset();
        model.script(request -> "answered");
        ExecutorService pool = Executors.newFixedThreadPool(ids.size());
        try {
            List<Future<String>> steps = new ArrayList<>();
            for (String id : ids) {
                steps.add(pool.submit(() -> ActingAs.user(user).call(() -> ai.chat(id, "before the restart"))));
            }
            for (Future<String> step : steps) {
                assertThat(step.get()).isEqualTo("answered");
            }
        } finally {
            pool.shutdownNow();
        }
        FaultRedis.redis.kill();
        FaultRedis.redis.start();
        for (String id : ids) {
            assertThat(ActingAs.user(user).call(() -> ai.chat(id, "after the restart"))).isEqualTo("answered");
        }
        for (String id : ids) {
            assertThat(given().auth().oauth2(Tokens.user(user)).get("/v1/sessions/{id}", id).then().statusCode(200)
                    .extract().jsonPath().getInt("version")).as("both steps of %s stored", id).isEqualTo(3);
        }
    }

    /**
     * Redis dies while the model answers: the caller is told the step was not stored (here its chat window, written
     * after the answer, meets the dead Redis first), not handed the client's raw exception, and nothing was stored.
     */
    @Test
    void aStepWhoseRedisDiesDuringTheModelCallSaysItsAnswerWasNotStored() {
        String id = createSession();
        long version = as().get("/v1/sessions/{id}", id).then().statusCode(200).extract().jsonPath().getLong("version");
        model.reset();
        model.script(request -> {
            FaultRedis.redis.kill();
            return "answered while Redis died";
        });
        try {
            assertThatThrownBy(() -> ActingAs.user(user).call(() -> ai.chat(id, "one more step")))
                    .isInstanceOfSatisfying(StepNotStoredException.class,
                            e -> assertThat(e.sessionId()).isEqualTo(id))
                    .hasMessageContaining("step of session " + id + " was not stored")
                    .hasMessageContaining("stays at version " + version);
        } finally {
            FaultRedis.redis.start();
        }
        assertThat(as().get("/v1/sessions/{id}", id).then().statusCode(200).extract().jsonPath().getLong("version"))
                .as("the session's version after the failed step").isEqualTo(version);
    }

    @Test
    void killedRedisKeepsAcknowledgedWritesAndRetriesApplyOnce() throws Exception {
        String id = createSession();
        String other = createSession();
        Tally before = writeConcurrently(id, "acked-");
        assertThat(before.acknowledged).hasSize(WRITERS);

        FaultRedis.redis.kill();
        Tally during;
        try {
            during = writeConcurrently(id, "down-");
            ExtractableResponse<Response> read = as().get("/v1/sessions/{id}", id).then().extract();
            assertThat(read.statusCode()).isEqualTo(503);
            assertThat(read.header("Retry-After")).isNotNull();
        } finally {
            FaultRedis.redis.start();
        }
        // service is back for steps too
        model.reset();
        model.script(request -> "back");
        assertThat(ActingAs.user(user).call(() -> ai.chat(other, "after the restart"))).isEqualTo("back");
        assertThat(during.otherServerErrors).as("answers >= 500 other than 503").isZero();
        assertThat(during.withoutRetryAfter).as("503s without Retry-After").isZero();
        assertThat(during.acknowledged).as("nothing is acknowledged while Redis is down").isEmpty();
        assertThat(during.untruthful).as("503s that say neither 'nothing was written' nor 'may or may not'").isZero();
        System.out.printf("RedisFaultTest kill: %d acknowledged before, %d answered 503, %d of them 'nothing was written'%n",
                before.acknowledged.size(), during.unavailable.size(), during.notWritten.size());
        Map<String, List<Long>> afterRestart = notes(id);
        for (String key : during.notWritten) {
            assertThat(afterRestart).as("%s was answered 'nothing was written'", key).doesNotContainKey(key);
        }

        Map<String, Long> retried = new HashMap<>();
        for (String key : during.unavailable) {
            retried.put(key, retry(id, key));
        }
        Map<String, List<Long>> notes = notes(id);
        for (String key : before.acknowledged) {
            assertThat(notes.get(key)).as("acknowledged write %s survived SIGKILL", key).hasSize(1);
        }
        for (String key : during.unavailable) {
            assertThat(notes.get(key)).as("write %s applied exactly once", key).containsExactly(retried.get(key));
        }
        assertThat(notes.values().stream().mapToInt(List::size).sum()).isEqualTo(1 + 2 * WRITERS);
        String fresh = createSession();
        as().get("/v1/sessions/{id}", fresh).then().statusCode(200);
    }
}
