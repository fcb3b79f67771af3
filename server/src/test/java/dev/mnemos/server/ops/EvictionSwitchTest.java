package dev.mnemos.server.ops;

import dev.mnemos.server.support.OwnedRedis;
import dev.mnemos.testsupport.FreePorts;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * A {@code CONFIG SET maxmemory-policy allkeys-lru} on a live Redis stops session writes at once, not at the
 * background check's next run (10 s here, the default): each write script reads the policy itself, in the
 * same atomic call. Runs against a redis-server it owns (never the shared one).
 */
@QuarkusTest
@TestProfile(EvictionSwitchTest.SlowCheck.class)
class EvictionSwitchTest {

    public static class SlowCheck implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.mnemos.redis.check-interval", "10s");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(OwnRedis.class));
        }
    }

    public static class OwnRedis implements QuarkusTestResourceLifecycleManager {
        static OwnedRedis redis;
        static int port;

        @Override
        public Map<String, String> start() {
            port = FreePorts.one();
            redis = new OwnedRedis(port).start();
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
        new OwnRedis().stop();
    }

    final String user = "switch-" + UUID.randomUUID();

    RequestSpecification as() {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    static void policy(String policy) throws Exception {
        Process cli = new ProcessBuilder("redis-cli", "-p", Integer.toString(OwnRedis.port), "CONFIG", "SET",
                "maxmemory-policy", policy).redirectErrorStream(true).start();
        assertThat(cli.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(cli.getInputStream().readAllBytes()).trim()).isEqualTo("OK");
    }

    @Test
    void writesAreRefusedAsSoonAsThePolicyEvicts() throws Exception {
        String id = as().body(Map.of("goal", "switched at runtime")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
        as().body(Map.of("patch", Map.of("putCollected", Map.of("k", "v")))).post("/v1/sessions/{id}/steps", id)
                .then().statusCode(200);
        given().get("/q/health/ready").then().statusCode(200);

        List<ExtractableResponse<Response>> answers = new ArrayList<>();
        long switched;
        try {
            policy("allkeys-lru");
            switched = System.nanoTime();
            answers.add(as().body(Map.of("patch", Map.of("putCollected", Map.of("k1", "v"))))
                    .post("/v1/sessions/{id}/steps", id).then().extract());
            answers.add(as().body(Map.of("goal", "new")).post("/v1/sessions").then().extract());
            answers.add(as().body(Map.of("toVersion", 1)).post("/v1/sessions/{id}/rollback", id).then().extract());
            answers.add(as().body(Map.of("fromVersion", 1)).post("/v1/sessions/{id}/fork", id).then().extract());
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - switched)).as("ms the writes took")
                    .isLessThan(1000);
            for (ExtractableResponse<Response> answer : answers) {
                assertThat(answer.statusCode()).as(answer.body().asString()).isEqualTo(503);
                assertThat(answer.<String> path("maxmemoryPolicy")).isEqualTo("allkeys-lru");
                assertThat(answer.<String> path("detail")).contains("nothing was written");
            }
            as().get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(2));
        } finally {
            policy("noeviction");
        }
        given().get("/q/health/ready").then().statusCode(200);
        as().body(Map.of("expectedVersion", 2, "patch", Map.of("putCollected", Map.of("k2", "v"))))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(200);
    }
}
