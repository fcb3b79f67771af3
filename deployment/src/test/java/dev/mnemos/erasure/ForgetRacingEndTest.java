package dev.mnemos.erasure;

import dev.mnemos.promotion.TestRedisServer;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionStore;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Holdings;
import io.agroal.api.AgroalDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.path.json.JsonPath;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A forget acknowledged before an end's archive is written is never in that archive. The end is held, by a decorator
 * of the session store, right after it read the session's state and replay log from Redis and before it takes the
 * user's lock to archive; the forget runs and answers 200 in that gap; then the end goes on. No row of any Mnemos
 * table, no Redis key (name or value), no replay entry, past version or export holds the text or its evidence.
 */
class ForgetRacingEndTest {

    /**
     * A Redis of the class's own: its checks scan every key of the whole Redis for the forgotten text, and the machine's
     * shared Redis holds every other test's (and build's) keys.
     */
    static final TestRedisServer REDIS = new TestRedisServer();

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings()
            // exact texts only: no rewordings, so no embedding model to load
            .overrideConfigKey("quarkus.mnemos.profile.embeddings", "NONE")
            .overrideConfigKey("quarkus.http.test-timeout", "120s")
            .setBeforeAllCustomizer(() -> REDIS.start().forEach(ForgetRacingEndTest.APP::overrideConfigKey))
            .setAfterAllCustomizer(REDIS::stop), jar -> jar.addClasses(HeldEnd.class, TestRedisServer.class));

    /** Holds the end of one session after it read the session's state and replay log in Redis. */
    @Decorator
    @Priority(10)
    abstract static class HeldEnd implements SessionStore {

        static volatile String session;
        static volatile CountDownLatch read = new CountDownLatch(1);
        static volatile CountDownLatch release = new CountDownLatch(1);

        @Inject
        @Delegate
        @Any
        SessionStore delegate;

        @Override
        public List<SessionEvent> events(String sessionId, long fromVersion, int limit) {
            List<SessionEvent> events = delegate.events(sessionId, fromVersion, limit);
            if (sessionId.equals(session)) {
                session = null;
                read.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return events;
        }
    }

    @Inject
    AgroalDataSource db;
    @Inject
    RedisDataSource redis;

    private String alice;
    private String tag;

    @BeforeEach
    void user() {
        alice = "alice-" + UUID.randomUUID();
        tag = "x" + UUID.randomUUID().toString().substring(0, 8);
        HeldEnd.read = new CountDownLatch(1);
        HeldEnd.release = new CountDownLatch(1);
    }

    @Test
    void aForgetBetweenTheEndsReadAndItsArchiveIsNotArchived() throws Exception {
        String text = "I am allergic to peanuts " + tag;
        String evidence = "my doctor " + tag + " told me so";
        long fact = as(alice).body(Map.of("text", text)).post("/v1/profile/facts").then().statusCode(201).extract()
                .jsonPath().getLong("changes[0].factId");
        String held = start(alice);
        String later = start(alice);
        for (String session : List.of(held, later)) {
            observe(alice, session, text, evidence, true);
            as(alice).body(Map.of("expectedVersion", version(session), "patch",
                    Map.of("context", "Planning for someone who said: " + text)))
                    .post("/v1/sessions/{id}/steps", session).then().statusCode(200);
        }
        long version = version(held);
        HeldEnd.session = held;
        CompletableFuture<JsonPath> ending = CompletableFuture.supplyAsync(() -> end(alice, held));
        assertThat(HeldEnd.read.await(60, TimeUnit.SECONDS)).as("the end read the session").isTrue();

        try {
            as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);
        } finally {
            HeldEnd.release.countDown();
        }
        JsonPath report = ending.get(120, TimeUnit.SECONDS);
        end(alice, later);

        assertThat(report.prettify()).doesNotContain(tag);
        for (String copy : List.of(text, evidence)) {
            assertThat(Holdings.dbHits(db, copy)).as("%s, in the database", copy).isEmpty();
            assertThat(Holdings.redisHitsAnywhere(redis, copy)).as("%s, in Redis", copy).isEmpty();
        }
        assertThat(as(alice).get("/v1/sessions/{id}/events?limit=100", held).then().statusCode(200).extract().asString())
                .doesNotContain(tag);
        for (long v = 1; v <= version; v++) {
            assertThat(as(alice).get("/v1/sessions/{id}/versions/{v}", held, v).then().statusCode(200).extract()
                    .asString()).as("version %d", v).doesNotContain(tag);
        }
        assertThat(as(alice).get("/v1/me/export").then().statusCode(200).extract().asString()).doesNotContain(tag);
    }

    private long version(String session) {
        return as(alice).get("/v1/sessions/{id}", session).then().statusCode(200).extract().jsonPath().getLong("version");
    }
}
