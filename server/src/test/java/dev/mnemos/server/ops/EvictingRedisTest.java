package dev.mnemos.server.ops;

import dev.mnemos.server.support.OwnedRedis;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis whose maxmemory-policy evicts (set at runtime with CONFIG SET, found by the periodic check) gets
 * no session write acknowledged: every write answers 503 problem+json naming the policy, nothing is written,
 * readiness is DOWN; back on noeviction, writes are accepted again. Runs against a redis-server it owns.
 */
@QuarkusTest
@TestProfile(EvictingRedisTest.Evicting.class)
class EvictingRedisTest {

    public static class Evicting implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.mnemos.redis.check-interval", "200ms");
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
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
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

    final String user = "evict-" + UUID.randomUUID();

    RequestSpecification as() {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    static void policy(String policy) throws Exception {
        Process cli = new ProcessBuilder("redis-cli", "-p", Integer.toString(OwnRedis.port), "CONFIG", "SET",
                "maxmemory-policy", policy).redirectErrorStream(true).start();
        assertThat(cli.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(cli.getInputStream().readAllBytes()).trim()).isEqualTo("OK");
    }

    static int readiness() {
        return given().get("/q/health/ready").then().extract().statusCode();
    }

    static void awaitReadiness(int status) throws InterruptedException {
        for (int i = 0; i < 100 && readiness() != status; i++) {
            Thread.sleep(100);
        }
        assertThat(readiness()).isEqualTo(status);
    }

    @Test
    void noWriteIsAcknowledgedWhileRedisMayEvict() throws Exception {
        String id = as().body(Map.of("goal", "survive eviction")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
        as().body(Map.of("expectedVersion", 1, "patch", Map.of("putCollected", Map.of("k", "v"))))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(200);
        awaitReadiness(200);

        try {
            policy("allkeys-lru");
            // found by the periodic check (every 200 ms here): no probe, no write needed to notice it
            Thread.sleep(1500);

            List<ExtractableResponse<Response>> answers = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                answers.add(as().body(Map.of("patch", Map.of("putCollected", Map.of("k" + i, "v"))))
                        .post("/v1/sessions/{id}/steps", id).then().extract());
                answers.add(as().body(Map.of("goal", "new " + i)).post("/v1/sessions").then().extract());
            }
            answers.add(as().body(Map.of("toVersion", 1)).post("/v1/sessions/{id}/rollback", id).then().extract());
            answers.add(as().body(Map.of("fromVersion", 1)).post("/v1/sessions/{id}/fork", id).then().extract());
            long acknowledged = answers.stream().filter(a -> a.statusCode() < 300).count();
            assertThat(acknowledged).as("writes acknowledged under an evicting policy").isZero();
            for (ExtractableResponse<Response> answer : answers) {
                assertThat(answer.statusCode()).isEqualTo(503);
                assertThat(answer.contentType()).startsWith("application/problem+json");
                assertThat(answer.<String> path("maxmemoryPolicy")).isEqualTo("allkeys-lru");
                assertThat(answer.<String> path("detail")).contains("nothing was written");
            }
            ExtractableResponse<Response> ready = given().get("/q/health/ready").then().extract();
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body().asString()).contains("allkeys-lru");
            // reads still answer, and nothing moved
            as().get("/v1/sessions/{id}", id).then().statusCode(200)
                    .body("version", Matchers.equalTo(2));
        } finally {
            policy("noeviction");
        }
        awaitReadiness(200);
        as().body(Map.of("expectedVersion", 2, "patch", Map.of("putCollected", Map.of("k2", "v"))))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(200);
    }
}
