package dev.mnemos.promotion;

import dev.mnemos.session.SessionKeys;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static dev.mnemos.promotion.SessionEndTest.as;
import static dev.mnemos.promotion.SessionEndTest.observe;
import static dev.mnemos.promotion.SessionEndTest.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

@QuarkusTest
@TestProfile(PostgresDown.class)
class PostgresDownTest {

    @Inject
    RedisDataSource redis;

    @Test
    void endingWhilePostgresIsDownAnswers503AndClearsNothing() {
        String alice = "alice-" + UUID.randomUUID();
        String s = start(alice);
        observe(alice, s, "From now on, be brief", null, true);
        as(alice).post("/v1/sessions/{id}/end", s).then().statusCode(503)
                .contentType("application/problem+json")
                .body("detail", equalTo("the profile store is unavailable; nothing was written, try again later"));
        as(alice).get("/v1/sessions/{id}", s).then().statusCode(200)
                .body("status", equalTo("ACTIVE"))
                .body("observations", hasSize(1));
        assertThat(redis.key().exists(SessionKeys.state(s))).isTrue();
        assertThat(redis.key().exists(SessionKeys.events(s))).isTrue();
    }

    @Test
    void profileCallsAnswer503NotA500() {
        String alice = "alice-" + UUID.randomUUID();
        as(alice).get("/v1/profile").then().statusCode(503).contentType("application/problem+json");
        as(alice).body(Map.of("text", "Likes tea")).post("/v1/profile/facts").then().statusCode(503);
        as(alice).body(Map.of("instruction", "remember I like tea")).post("/v1/profile/instruct").then().statusCode(503);
        as(alice).get("/v1/profile/pending").then().statusCode(503);
    }
}
