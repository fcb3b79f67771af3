package dev.mnemos.server.api;

import dev.mnemos.server.support.OwnedRedis;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;

/**
 * Redis edges (issue 33, item 9), against a redis-server the test owns: a write Redis refuses at its maxmemory
 * answers 503 saying nothing was written (it was not); a session a crash left ENDED without an archive is
 * completed by the sweep (promoted, archived, cleared) without any client retrying {@code /end}.
 */
@QuarkusTest
@TestProfile(RedisEdgesTest.OwnRedisAndQuickSweep.class)
class RedisEdgesTest {

    public static class OwnRedisAndQuickSweep implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.mnemos.promotion.end-sweep-interval", "300ms",
                    "quarkus.mnemos.promotion.end-sweep-grace", "0s");
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

    @Inject
    SessionStore store;

    final String user = "redis-edges-" + UUID.randomUUID();

    RequestSpecification as() {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    static void config(String name, String value) throws Exception {
        Process cli = new ProcessBuilder("redis-cli", "-p", Integer.toString(OwnRedis.port), "CONFIG", "SET", name, value)
                .redirectErrorStream(true).start();
        assertThat(cli.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(cli.getInputStream().readAllBytes()).trim()).isEqualTo("OK");
    }

    static ValidatableResponse nothingWritten(ValidatableResponse response) {
        return response.statusCode(503).contentType("application/problem+json").header("Retry-After", "2")
                .body("detail", containsString("nothing was written")).body("detail", not(containsString("may or may not")))
                .body("reason", equalTo("redis-oom"));
    }

    @Test
    void aWriteRefusedAtMaxmemoryIs503SayingNothingWasWritten() throws Exception {
        String id = as().body(Map.of("goal", "fill up")).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
        try {
            config("maxmemory", "1");
            nothingWritten(as().body(Map.of("patch", Map.of("goal", "more"))).post("/v1/sessions/{id}/steps", id).then());
            nothingWritten(as().body(Map.of("expectedVersion", 1, "patch", Map.of("goal", "more")))
                    .post("/v1/sessions/{id}/steps", id).then());
            nothingWritten(as().body(Map.of("text", "likes tea")).post("/v1/sessions/{id}/observations", id).then());
            nothingWritten(as().body(Map.of("goal", "another")).post("/v1/sessions").then());
        } finally {
            config("maxmemory", "0");
        }
        as().get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(1))
                .body("goal", equalTo("fill up"));
        as().get("/v1/sessions").then().statusCode(200).body("$", hasSize(1));
    }

    @Test
    void aSessionACrashLeftEndedIsCompletedByTheSweep() throws Exception {
        String id = as().body(Map.of("goal", "crash mid-end")).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
        as().body(Map.of("text", "from now on answer in French", "kind", "PREFERENCE", "scope", "STABLE", "slot",
                "output.language", "explicit", true)).post("/v1/sessions/{id}/observations", id).then().statusCode(200);
        // the Redis half of /end, then the process died before the Postgres half
        assertThat(store.end(id, user).status()).isEqualTo(SessionState.Status.ENDED);

        int status = 0;
        for (int i = 0; i < 100 && status != 200; i++) {
            Thread.sleep(100);
            status = as().get("/v1/sessions/{id}/report", id).then().extract().statusCode();
        }
        assertThat(status).as("the end report of the crash-left session").isEqualTo(200);
        assertThatThrownBy(() -> store.get(id)).isInstanceOf(SessionNotFoundException.class);
        as().get("/v1/sessions").then().statusCode(200).body("$", hasSize(0));
        as().get("/v1/sessions/{id}/versions", id).then().statusCode(200).body("type", hasSize(3))
                .body("[2].type", equalTo("END")).body("[2].actor", equalTo(user));
        as().get("/v1/profile").then().statusCode(200).body("facts.text", hasSize(1));
        // ending it again answers the same report
        as().post("/v1/sessions/{id}/end", id).then().statusCode(200);
    }
}
