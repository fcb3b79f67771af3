package dev.mnemos.server.api;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import static dev.mnemos.server.api.SessionResourceTest.as;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/** Reads show the newest 10 plan versions unless {@code ?plans=} asks otherwise; older ones are paged. */
@QuarkusTest
class SessionPlansResourceTest {

    final String alice = "alice-" + UUID.randomUUID();

    @Test
    void readsShowTheNewestPlansAndOlderOnesArePaged() {
        String id = as(alice).body(Map.of("goal", "g")).post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
        for (int n = 1; n <= 13; n++) {
            as(alice).body(Map.of("patch", Map.of("addPlan", Map.of("content", "plan " + n))))
                    .post("/v1/sessions/{id}/steps", id)
                    .then().statusCode(200);
        }
        as(alice).get("/v1/sessions/{id}", id).then().statusCode(200).body("plans.version",
                equalTo(IntStream.rangeClosed(4, 13).boxed().toList()));
        as(alice).get("/v1/sessions/{id}?plans=all", id).then().statusCode(200).body("plans", hasSize(13));
        as(alice).get("/v1/sessions/{id}?plans=2", id).then().statusCode(200).body("plans.content",
                contains("plan 12", "plan 13"));
        as(alice).get("/v1/sessions/{id}/versions/{v}?plans=1", id, 5).then().statusCode(200).body("plans.content",
                contains("plan 4"));
        as(alice).get("/v1/sessions/{id}/plans?limit=5", id).then().statusCode(200)
                .body("plans.version", equalTo(List.of(1, 2, 3, 4, 5))).body("total", equalTo(13)).body("next", equalTo(6));
        as(alice).get("/v1/sessions/{id}/plans?from=11&limit=5", id).then().statusCode(200)
                .body("plans.content", contains("plan 11", "plan 12", "plan 13")).body("next", nullValue());
        as(alice).get("/v1/sessions/{id}?plans=lots", id).then().statusCode(400).body("field", equalTo("plans"));
        as(alice).get("/v1/sessions/{id}/plans?limit=0", id).then().statusCode(400).body("field", equalTo("limit"));
        as("bob-" + UUID.randomUUID()).get("/v1/sessions/{id}/plans", id).then().statusCode(404);
    }
}
