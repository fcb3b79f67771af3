package dev.mnemos.erasure;

import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Holdings;
import io.agroal.api.AgroalDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A forget reaches a live session's current state where the text is a field's name, not its value: an open
 * question and a collected entry's key. After a forget answered 200, no Redis key (name or value) and no row of any
 * Mnemos table holds the text; the session's state does not show it, and its archive and the export do not hold it
 * once it ends.
 */
class ForgetReachesTheLiveStateTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings()
            // exact texts only: no rewordings, so no embedding model to load
            .overrideConfigKey("quarkus.mnemos.profile.embeddings", "NONE")
            .overrideConfigKey("quarkus.http.test-timeout", "120s"));

    @Inject
    AgroalDataSource db;
    @Inject
    RedisDataSource redis;

    private String alice;
    /** Makes each test's texts its own: the scans read all of Redis and whole tables, other tests' data too. */
    private String tag;

    @BeforeEach
    void user() {
        alice = "alice-" + UUID.randomUUID();
        tag = "x" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void anOpenQuestionAndACollectedKeyAreBlankedInTheCurrentState() throws Exception {
        String text = "I am allergic to peanuts " + tag;
        String other = "Should we book the night train " + tag + "?";
        long fact = as(alice).body(Map.of("text", text)).post("/v1/profile/facts").then().statusCode(201).extract()
                .jsonPath().getLong("changes[0].factId");
        String session = start(alice);
        observe(alice, session, text, null, true);
        as(alice).body(Map.of("expectedVersion", version(session), "patch", Map.of(
                "context", "Planning for someone who said: " + text,
                "addOpenQuestions", List.of(text, other),
                "putCollected", Map.of(text, "noted", "diet", text))))
                .post("/v1/sessions/{id}/steps", session).then().statusCode(200);
        assertThat(Holdings.redisHitsAnywhere(redis, text)).as("before the forget").isNotEmpty();
        long version = version(session);

        as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);

        assertThat(Holdings.redisHitsAnywhere(redis, text)).as("the text, in any Redis key's name or value").isEmpty();
        assertThat(Holdings.dbHits(db, text)).as("the text, in the database").isEmpty();
        String state = as(alice).get("/v1/sessions/{id}", session).then().statusCode(200).extract().asString();
        assertThat(state).doesNotContain(text).contains(other).contains(ForgottenCopies.FORGOTTEN);
        assertThat(version(session)).as("a scrub is no new version").isEqualTo(version);
        for (long v = 1; v <= version; v++) {
            assertThat(as(alice).get("/v1/sessions/{id}/versions/{v}", session, v).then().statusCode(200).extract()
                    .asString()).as("version %d", v).doesNotContain(text);
        }
        // the session still takes steps: the renamed question is answered like any other
        as(alice).body(Map.of("expectedVersion", version, "patch",
                Map.of("answerOpenQuestions", List.of(ForgottenCopies.FORGOTTEN))))
                .post("/v1/sessions/{id}/steps", session).then().statusCode(200);
        assertThat(as(alice).get("/v1/sessions/{id}", session).then().statusCode(200).extract().jsonPath()
                .getList("openQuestions", String.class)).containsExactly(other);

        end(alice, session);

        assertThat(Holdings.dbHits(db, text)).as("the text, in the archive or anywhere in the database").isEmpty();
        assertThat(Holdings.redisHitsAnywhere(redis, text)).as("the text, in Redis after the end").isEmpty();
        assertThat(as(alice).get("/v1/me/export").then().statusCode(200).extract().asString()).doesNotContain(text)
                .contains(other);
    }

    private long version(String session) {
        return as(alice).get("/v1/sessions/{id}", session).then().statusCode(200).extract().jsonPath().getLong("version");
    }
}
