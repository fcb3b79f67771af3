package dev.mnemos.server.api;

import dev.mnemos.metrics.Outages;
import dev.mnemos.session.AppliedPatch;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.server.api.SessionResourceTest.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;

/**
 * A session with more plan versions than Lua can unpack at once (about 8,000) still reads all its plans,
 * rolls back, forks and ends; a Redis script error is a 500, never a Redis outage (no 503, no outage count).
 */
@QuarkusTest
class LongSessionTest {

    static final int PLANS = 8_100;

    @Inject
    SessionStore store;

    @Inject
    RedisDataSource redis;

    @Inject
    MeterRegistry registry;

    final String alice = "alice-" + UUID.randomUUID();

    @Test
    void aSessionOfManyPlanVersionsReadsRollsBackForksAndEnds() {
        String id = as(alice).body(Map.of("goal", "a long task")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
        // through the store, 500 writes in flight at a time (no expected version: each is atomic, in any order)
        for (int from = 1; from <= PLANS; from += 500) {
            List<Uni<AppliedPatch>> writes = new ArrayList<>();
            for (int n = from; n < from + 500 && n <= PLANS; n++) {
                writes.add(store.applyAsync(StepWrite.of(id, SessionPatch.builder().addPlan("plan " + n, null, null)
                        .build()).ownedBy(alice)));
            }
            Uni.join().all(writes).andFailFast().await().atMost(Duration.ofMinutes(1));
        }
        double outages = outages();
        as(alice).get("/v1/sessions/{id}?plans=all", id).then().statusCode(200).body("plans", hasSize(PLANS))
                .body("plans[8099].version", equalTo(PLANS));
        as(alice).body(Map.of("toVersion", PLANS)).post("/v1/sessions/{id}/rollback", id).then().statusCode(200)
                .body("version", equalTo(PLANS + 2)).body("plans", hasSize(PLANS - 1));
        as(alice).get("/v1/sessions/{id}/versions/{v}?plans=all", id, PLANS + 2).then().statusCode(200)
                .body("plans", hasSize(PLANS - 1));
        String fork = as(alice).body(Map.of("fromVersion", PLANS + 1)).post("/v1/sessions/{id}/fork", id).then()
                .statusCode(201).extract().path("sessionId");
        as(alice).get("/v1/sessions/{id}?plans=all", fork).then().statusCode(200).body("plans", hasSize(PLANS));
        as(alice).post("/v1/sessions/{id}/end", fork).then().statusCode(200);
        as(alice).post("/v1/sessions/{id}/end", id).then().statusCode(200);
        assertThat(outages()).as("Redis outages counted").isEqualTo(outages);
    }

    @Test
    void aScriptErrorIsAServerErrorNotAnOutage() {
        String id = as(alice).body(Map.of("goal", "a broken session")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
        // a key of the session holding the wrong type: every write script fails on it inside Redis
        redis.value(String.class).set(SessionKeys.snapshots(id), "not a hash");
        double outages = outages();
        as(alice).body(Map.of("patch", Map.of("goal", "next"))).post("/v1/sessions/{id}/steps", id).then()
                .statusCode(500).body("detail", not(containsString("may or may not")))
                .body("detail", containsString("script"));
        as(alice).body(Map.of("toVersion", 1)).post("/v1/sessions/{id}/rollback", id).then().statusCode(500);
        assertThat(outages()).as("Redis outages counted").isEqualTo(outages);
        redis.key().del(SessionKeys.snapshots(id));
    }

    private double outages() {
        return Outages.counter(registry, "redis").count();
    }
}
