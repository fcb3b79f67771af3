package dev.mnemos.server.api;

import dev.mnemos.session.SessionKeys;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/**
 * Idempotency-Key on every session write, the paging convention of the list endpoints and the cap
 * on live sessions per user (set to 5 here, {@link SmallSessionLimits}), on the machine's Redis with a fresh user per test.
 */
@QuarkusTest
@TestProfile(SmallSessionLimits.class)
class IdempotentWritesTest {

    final String user = "idem-" + UUID.randomUUID();

    @Inject
    RedisDataSource redis;

    RequestSpecification as(String who) {
        return given().auth().oauth2(Tokens.user(who)).contentType(ContentType.JSON);
    }

    RequestSpecification keyed(String key) {
        return as(user).header("Idempotency-Key", key);
    }

    String create() {
        return as(user).body(Map.of("goal", "g")).post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
    }

    List<String> notes(String id) {
        return as(user).get("/v1/sessions/{id}/versions", id).then().statusCode(200).extract().jsonPath()
                .getList("note", String.class);
    }

    @Test
    void aRetriedStepIsAppliedOnceAndAnswersTheSame() {
        String id = create();
        Map<String, Object> body = Map.of("patch", Map.of("putCollected", Map.of("city", "Kyoto")), "note", "once");
        String first = keyed("k-1").body(body).post("/v1/sessions/{id}/steps", id).then().statusCode(200)
                .body("version", equalTo(2)).extract().asString();
        as(user).body(Map.of("patch", Map.of("goal", "other"))).post("/v1/sessions/{id}/steps", id).then()
                .statusCode(200).body("version", equalTo(3));
        String again = keyed("k-1").body(body).post("/v1/sessions/{id}/steps", id).then().statusCode(200).extract()
                .asString();
        assertThat(again).isEqualTo(first);
        assertThat(notes(id)).containsExactly(null, "once", null);

        keyed("k-1").body(Map.of("patch", Map.of("goal", "different"))).post("/v1/sessions/{id}/steps", id).then()
                .statusCode(422).contentType("application/problem+json").body("field", equalTo("Idempotency-Key"));
        keyed("has space").body(body).post("/v1/sessions/{id}/steps", id).then().statusCode(400)
                .body("field", equalTo("Idempotency-Key"));
        assertThat(notes(id)).as("refused requests wrote nothing").hasSize(3);
    }

    @Test
    void aRetriedCompareAndSetIsAnsweredNotStale() {
        String id = create();
        Map<String, Object> body = Map.of("expectedVersion", 1, "patch", Map.of("goal", "cas"));
        keyed("cas").body(body).post("/v1/sessions/{id}/steps", id).then().statusCode(200).body("version", equalTo(2));
        keyed("cas").body(body).post("/v1/sessions/{id}/steps", id).then().statusCode(200).body("version", equalTo(2));
        as(user).body(body).post("/v1/sessions/{id}/steps", id).then().statusCode(409);
    }

    @Test
    void createForkRollbackAndObservationAreIdempotent() {
        Map<String, Object> create = Map.of("goal", "keyed");
        ExtractableResponse<?> first = keyed("c-1").body(create).post("/v1/sessions").then().statusCode(201).extract();
        ExtractableResponse<?> again = keyed("c-1").body(create).post("/v1/sessions").then().statusCode(201).extract();
        assertThat(again.asString()).isEqualTo(first.asString());
        assertThat(again.header("Location")).isEqualTo(first.header("Location"));
        String id = first.path("sessionId");
        keyed("c-1").body(Map.of("goal", "another")).post("/v1/sessions").then().statusCode(422);

        keyed("o-1").body(Map.of("text", "likes trains", "kind", "PREFERENCE")).post("/v1/sessions/{id}/observations", id)
                .then().statusCode(200).body("version", equalTo(2));
        keyed("o-1").body(Map.of("text", "likes trains", "kind", "PREFERENCE")).post("/v1/sessions/{id}/observations", id)
                .then().statusCode(200).body("version", equalTo(2));
        as(user).get("/v1/sessions/{id}", id).then().body("observations", hasSize(1));

        String rolled = keyed("r-1").body(Map.of("toVersion", 1)).post("/v1/sessions/{id}/rollback", id).then()
                .statusCode(200).body("version", equalTo(3)).extract().asString();
        assertThat(keyed("r-1").body(Map.of("toVersion", 1)).post("/v1/sessions/{id}/rollback", id).then()
                .statusCode(200).extract().asString()).isEqualTo(rolled);

        String fork = keyed("f-1").body(Map.of("fromVersion", 2)).post("/v1/sessions/{id}/fork", id).then()
                .statusCode(201).extract().asString();
        assertThat(keyed("f-1").body(Map.of("fromVersion", 2)).post("/v1/sessions/{id}/fork", id).then()
                .statusCode(201).extract().asString()).isEqualTo(fork);
        assertThat(notes(id)).hasSize(3);
        as(user).get("/v1/sessions").then().statusCode(200).body("$", hasSize(2));
    }

    /**
     * A keyed create or fork retried after its session ended must not start that session again: its
     * id (derived from the key) belongs to the archive, and a second life under it was dropped
     * unarchived at its own end. Refused while the cleared session's marker lives, and after it.
     */
    @Test
    void aKeyOfAnEndedSessionCannotStartItAgain() {
        Map<String, Object> create = Map.of("goal", "first life");
        String id = keyed("e-1").body(create).post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
        as(user).body(Map.of("patch", Map.of("putCollected", Map.of("city", "Kyoto")))).post("/v1/sessions/{id}/steps", id)
                .then().statusCode(200);
        String fork = keyed("ef-1").body(Map.of("fromVersion", 2)).post("/v1/sessions/{id}/fork", id).then()
                .statusCode(201).extract().path("sessionId");
        as(user).body(Map.of()).post("/v1/sessions/{id}/end", fork).then().statusCode(200);
        as(user).body(Map.of()).post("/v1/sessions/{id}/end", id).then().statusCode(200);
        String history = as(user).get("/v1/sessions/{id}/events", id).then().statusCode(200).extract().asString();

        for (boolean markerExpired : new boolean[] { false, true }) {
            if (markerExpired) {
                redis.key().del(SessionKeys.ended(id), SessionKeys.ended(fork));
            }
            keyed("e-1").body(create).post("/v1/sessions").then().statusCode(409)
                    .contentType("application/problem+json").body("field", equalTo("Idempotency-Key"))
                    .body("sessionId", equalTo(id)).body("detail", containsString("ended"));
            as(user).header("Idempotency-Key", "ef-1").body(Map.of("fromVersion", 2)).post("/v1/sessions/{id}/fork", id)
                    .then().statusCode(409).body("sessionId", equalTo(fork));
            assertThat(redis.key().exists(SessionKeys.state(id))).as("no second life of %s", id).isFalse();
            assertThat(redis.key().exists(SessionKeys.state(fork))).as("no second life of the fork").isFalse();
        }
        assertThat(as(user).get("/v1/sessions/{id}/events", id).then().statusCode(200).extract().asString())
                .as("the archived history is untouched").isEqualTo(history);
        as(user).get("/v1/sessions").then().statusCode(200).body("$", hasSize(0));
        keyed("e-2").body(create).post("/v1/sessions").then().statusCode(201);
    }

    @Test
    void aKeyedForkOfAnEndedForkIsRefused() {
        String id = create();
        String fork = keyed("ff-1").body(Map.of("fromVersion", 1)).post("/v1/sessions/{id}/fork", id).then()
                .statusCode(201).extract().path("sessionId");
        as(user).body(Map.of()).post("/v1/sessions/{id}/end", fork).then().statusCode(200);
        redis.key().del(SessionKeys.ended(fork));
        keyed("ff-1").body(Map.of("fromVersion", 1)).post("/v1/sessions/{id}/fork", id).then().statusCode(409)
                .body("field", equalTo("Idempotency-Key")).body("sessionId", equalTo(fork));
        assertThat(redis.key().exists(SessionKeys.state(fork))).isFalse();
        as("outsider-" + UUID.randomUUID()).header("Idempotency-Key", "ff-1")
                .body(Map.of("fromVersion", 1)).post("/v1/sessions/{id}/fork", id).then().statusCode(404);
    }

    @Test
    void sessionListsArePagedAndCapped() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(0, create());
        }
        as(user).body(Map.of("goal", "sixth")).post("/v1/sessions").then().statusCode(429)
                .contentType("application/problem+json").body("detail", containsString("5 live sessions"))
                .body("maxLiveSessions", equalTo(5));

        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            RequestSpecification request = as(user).queryParam("limit", 2);
            if (cursor != null) {
                request = request.queryParam("cursor", cursor);
            }
            ExtractableResponse<?> page = request.get("/v1/sessions").then().statusCode(200).extract();
            seen.addAll(page.jsonPath().getList("$", String.class));
            cursor = page.header("Mnemos-Next-Cursor");
            if (cursor != null) {
                assertThat(page.header("Link")).contains("cursor=" + cursor).endsWith("rel=\"next\"");
            } else {
                assertThat(page.header("Link")).isNull();
            }
            pages++;
        } while (cursor != null);
        assertThat(pages).isEqualTo(3);
        assertThat(seen).as("newest first, each once").isEqualTo(created);

        as(user).delete("/v1/sessions/{id}", created.get(0)).then().statusCode(204);
        create();

        as(user).queryParam("limit", 0).get("/v1/sessions").then().statusCode(400).body("field", equalTo("limit"));
        as(user).queryParam("limit", 1001).get("/v1/sessions").then().statusCode(400).body("field", equalTo("limit"));
        as(user).queryParam("limit", "many").get("/v1/sessions").then().statusCode(400).body("field", equalTo("limit"));
        as(user).queryParam("cursor", "not a cursor").get("/v1/sessions").then().statusCode(400)
                .body("field", equalTo("cursor"));
    }

    @Test
    void versionsAndEventsArePaged() {
        String id = create();
        for (int i = 0; i < 4; i++) {
            as(user).body(Map.of("patch", Map.of("goal", "g" + i))).post("/v1/sessions/{id}/steps", id).then()
                    .statusCode(200);
        }
        ExtractableResponse<?> first = as(user).queryParam("limit", 2).get("/v1/sessions/{id}/versions", id).then()
                .statusCode(200).body("version", equalTo(List.of(1, 2))).extract();
        String next = first.header("Mnemos-Next-Cursor");
        ExtractableResponse<?> second = as(user).queryParam("limit", 2).queryParam("cursor", next)
                .get("/v1/sessions/{id}/versions", id).then().statusCode(200).body("version", equalTo(List.of(3, 4)))
                .extract();
        as(user).queryParam("limit", 2).queryParam("cursor", second.header("Mnemos-Next-Cursor"))
                .get("/v1/sessions/{id}/versions", id).then().statusCode(200).body("version", equalTo(List.of(5)))
                .header("Mnemos-Next-Cursor", nullValue()).header("Link", nullValue());
        as(user).queryParam("from", 4).get("/v1/sessions/{id}/events", id).then().statusCode(200)
                .body("version", equalTo(List.of(4, 5))).header("Mnemos-Next-Cursor", nullValue());
        as(user).queryParam("limit", 3).get("/v1/sessions/{id}/events", id).then().statusCode(200)
                .body("version", equalTo(List.of(1, 2, 3)));
        as(user).queryParam("cursor", next).get("/v1/sessions/{id}/events", id).then().statusCode(400)
                .body("field", equalTo("cursor"));
    }

    @Test
    void profileHistoryAndPendingArePaged() {
        for (String fact : List.of("likes tea", "likes trains", "lives in Kyoto")) {
            as(user).body(Map.of("text", fact, "category", "PREFERENCE")).post("/v1/profile/facts").then().statusCode(201);
        }
        List<Long> all = as(user).get("/v1/profile/history").then().statusCode(200).body("userId", equalTo(user))
                .header("Mnemos-Next-Cursor", nullValue()).extract().jsonPath().getList("events.id", Long.class);
        assertThat(all).hasSizeGreaterThanOrEqualTo(3);
        List<Long> ids = new ArrayList<>();
        String cursor = null;
        do {
            RequestSpecification request = as(user).queryParam("limit", 2);
            if (cursor != null) {
                request = request.queryParam("cursor", cursor);
            }
            ExtractableResponse<?> page = request.get("/v1/profile/history").then().statusCode(200)
                    .body("userId", equalTo(user)).extract();
            List<Long> events = page.jsonPath().getList("events.id", Long.class);
            assertThat(events).hasSizeBetween(1, 2);
            ids.addAll(events);
            cursor = page.header("Mnemos-Next-Cursor");
        } while (cursor != null);
        assertThat(ids).as("the pages, joined, are the whole history, newest first").isEqualTo(all);
        as(user).get("/v1/profile/pending").then().statusCode(200).body("$", hasSize(0))
                .header("Mnemos-Next-Cursor", nullValue());
        as(user).queryParam("limit", -1).get("/v1/profile/pending").then().statusCode(400).body("field", equalTo("limit"));
    }
}
