package dev.mnemos.promotion;

import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.SqlRows;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.path.json.JsonPath;
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
 * A session end never deletes a fact the user stated: at the profile's cap its candidates stay pending,
 * and one session promotes at most {@code quarkus.mnemos.promotion.max-per-session} facts.
 */
class PromotionCapTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            // the server's setting: Mnemos' extraction, reconcile and summaries take their deterministic paths
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false"));

    @Inject
    AgroalDataSource db;

    private String alice;

    @BeforeEach
    void user() {
        alice = "alice-" + UUID.randomUUID();
    }

    @Test
    void aSessionAtTheCapDeletesNoneOfTheUsersFacts() throws Exception {
        for (int i = 0; i < 50; i++) {
            as(alice).body(Map.of("text", "Typed by the user, number " + i)).post("/v1/profile/facts").then().statusCode(201);
        }
        List<Long> typed = facts().getList("facts.id", Long.class);
        String s = start(alice);
        for (int i = 0; i < 50; i++) {
            observe(alice, s, "From now on always mention the code word " + i, null, true);
        }
        JsonPath report = end(alice, s);

        List<Long> after = facts().getList("facts.id", Long.class);
        long deleted = typed.stream().filter(id -> !after.contains(id)).count();
        assertThat(deleted).as("user facts deleted by promotion").isZero();
        assertThat(after).hasSize(50);
        assertThat(report.getList("promoted")).isEmpty();
        List<String> reasons = report.getList("pending.reason", String.class);
        assertThat(reasons).hasSize(50).allMatch(r -> r.contains("50 active facts") || r.contains("at most 5"));
        assertThat(reasons.stream().filter(r -> r.contains("50 active facts"))).as("the session's first five").hasSize(5);
        assertThat(count("select count(*) from profile_event where user_id = ? and action = 'DELETE'", alice)).isZero();
        assertThat(as(alice).get("/v1/profile/pending?limit=100").then().statusCode(200).extract().jsonPath()
                .getList("$")).hasSize(50);
    }

    @Test
    void oneSessionPromotesAtMostTheConfiguredNumberAndLeavesTheRestPending() throws Exception {
        String s = start(alice);
        for (int i = 0; i < 8; i++) {
            observe(alice, s, "From now on always mention the code word " + i, null, true);
        }
        JsonPath report = end(alice, s);
        assertThat(report.getList("promoted.text", String.class)).hasSize(5);
        assertThat(report.getList("pending.reason", String.class)).hasSize(3)
                .allMatch(r -> r.contains("at most 5"));
        assertThat(facts().getList("facts")).hasSize(5);
        long pending = as(alice).get("/v1/profile/pending").then().extract().jsonPath().getList("$").size();
        assertThat(pending).isEqualTo(3);
        long candidate = report.getLong("pending[0].candidateId");
        as(alice).post("/v1/profile/pending/{id}/confirm", candidate).then().statusCode(200);
        assertThat(facts().getList("facts")).hasSize(6);
    }

    @Test
    void confirmingAtTheCapIsRefusedLikeAnAdd() {
        String s = start(alice);
        observe(alice, s, "Likes window seats", null, false);
        long candidate = end(alice, s).getLong("pending[0].candidateId");
        for (int i = 0; i < 50; i++) {
            as(alice).body(Map.of("text", "Typed by the user, number " + i)).post("/v1/profile/facts").then().statusCode(201);
        }
        as(alice).post("/v1/profile/pending/{id}/confirm", candidate).then().statusCode(409)
                .contentType("application/problem+json");
        assertThat(facts().getList("facts.text", String.class)).hasSize(50).doesNotContain("Likes window seats");
        assertThat(as(alice).get("/v1/profile/pending").then().extract().jsonPath().getList("id", Long.class))
                .containsExactly(candidate);
    }

    private JsonPath facts() {
        return as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath();
    }

    private long count(String sql, Object... params) throws Exception {
        return SqlRows.count(db, sql, params);
    }
}
