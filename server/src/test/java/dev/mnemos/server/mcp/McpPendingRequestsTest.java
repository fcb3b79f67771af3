package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemos.testsupport.Holdings;
import dev.mnemos.testsupport.SqlRows;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.modelcontextprotocol.client.McpSyncClient;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.mnemos.server.mcp.McpClients.connected;
import static dev.mnemos.server.mcp.McpClients.error;
import static dev.mnemos.server.mcp.McpClients.ok;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * Issue 51 item 5: a destructive MCP call beyond the session's budget is pending for the user, who confirms (which
 * carries it out, once) or rejects it outside the agent, over {@code /v1/profile/pending-requests}; until then the
 * fact stays and is injected. Real Postgres and Redis.
 */
@QuarkusTest
class McpPendingRequestsTest {

    private static final String REQUESTS = "/v1/profile/pending-requests";
    private static final AtomicInteger SLOTS = new AtomicInteger();

    @TestHTTPResource("/")
    URI root;

    @Inject
    AgroalDataSource db;

    @Inject
    RedisDataSource redis;

    final List<McpSyncClient> open = new ArrayList<>();
    final String tag = UUID.randomUUID().toString().substring(0, 8);

    McpSyncClient as(String user) {
        McpSyncClient client = connected(root, Tokens.user(user));
        open.add(client);
        return client;
    }

    @AfterEach
    void close() {
        open.forEach(McpSyncClient::closeGracefully);
    }

    private static RequestSpecification user(String user) {
        return given().auth().oauth2(Tokens.user(user));
    }

    /** Adds the facts, in order; answers their ids. */
    private static List<Long> addFacts(String user, String... texts) {
        List<Long> ids = new ArrayList<>();
        for (String text : texts) {
            JsonPath added = user(user).contentType("application/json")
                    .body(Map.of("category", "PREFERENCE", "slot", "pending.slot" + SLOTS.incrementAndGet(), "text", text))
                    .post("/v1/profile/facts").then().statusCode(201).extract().jsonPath();
            ids.add(added.getLong("changes[0].factId"));
        }
        return ids;
    }

    private static List<String> facts(String user) {
        return user(user).get("/v1/profile").then().statusCode(200).extract().path("facts.text");
    }

    /** An agent that spent its session's one destructive call on a fact of its own. */
    private McpSyncClient spentAgent(String user) {
        long spent = addFacts(user, "I collect stamps " + tag).get(0);
        McpSyncClient agent = as(user);
        ok(agent, "forget_fact", Map.of("factId", spent));
        return agent;
    }

    @Test
    void aForgetBeyondTheBudgetWaitsForTheUserAndTheirConfirmForgetsEverywhere() throws Exception {
        String alice = "pending-" + UUID.randomUUID();
        String text = "I drink rooibos tea " + tag;
        long fact = addFacts(alice, text).get(0);
        McpSyncClient agent = spentAgent(alice);
        String session = ok(agent, "start_task", Map.of("goal", "plan a tea tasting")).path("sessionId").asText();

        JsonNode pending = error(agent, "forget_fact", Map.of("factId", fact));
        assertThat(pending.path("error").asText()).isEqualTo("pending_confirmation");
        assertThat(pending.path("tool").asText()).isEqualTo("forget_fact");
        long id = pending.path("pendingRequestId").asLong();
        assertThat(id).isPositive();
        assertThat(error(agent, "forget_fact", Map.of("factId", fact)).path("pendingRequestId").asLong())
                .as("the agent asking again is the same request").isEqualTo(id);
        // nothing changed: the fact is served and injected until the user decides
        assertThat(facts(alice)).contains(text);
        assertThat(ok(agent, "get_memory_block", Map.of("sessionId", session, "message", "which tea?")).path("block")
                .asText()).contains(text);
        JsonPath listed = user(alice).get(REQUESTS).then().statusCode(200).extract().jsonPath();
        assertThat(listed.getList("id", Long.class)).containsExactly(id);
        assertThat(listed.getString("[0].tool")).isEqualTo("forget_fact");
        assertThat(listed.getLong("[0].factId")).isEqualTo(fact);
        assertThat(listed.getString("[0].factText")).isEqualTo(text);
        assertThat(listed.getString("[0].status")).isEqualTo("PENDING");

        // another user sees nothing and decides nothing; a service token has no such path for a user
        String mallory = "pending-m-" + UUID.randomUUID();
        assertThat(user(mallory).get(REQUESTS).then().statusCode(200).extract().jsonPath().getList("$")).isEmpty();
        for (String decision : List.of("confirm", "reject")) {
            user(mallory).post(REQUESTS + "/{id}/" + decision, id).then().statusCode(404)
                    .contentType("application/problem+json").body("field", equalTo("id"));
        }
        given().auth().oauth2(Tokens.service("backend")).get("/v1/users/{u}/profile/pending-requests", alice).then()
                .statusCode(404);
        assertThat(facts(alice)).contains(text);

        JsonPath confirmed = user(alice).post(REQUESTS + "/{id}/confirm", id).then().statusCode(200).extract().jsonPath();
        assertThat(confirmed.getBoolean("repeated")).isFalse();
        assertThat(confirmed.getString("request.status")).isEqualTo("CONFIRMED");
        assertThat(confirmed.getList("result.changes.action", String.class)).contains("FORGET");
        assertThat(user(alice).post(REQUESTS + "/{id}/confirm", id).then().statusCode(200).extract().jsonPath()
                .getBoolean("repeated")).isTrue();
        user(alice).post(REQUESTS + "/{id}/reject", id).then().statusCode(409).body("field", equalTo("id"));

        assertThat(facts(alice)).doesNotContain(text);
        assertThat(ok(agent, "get_memory_block", Map.of("sessionId", session, "message", "which tea?")).path("block")
                .asText()).doesNotContain(text);
        assertThat(user(alice).get(REQUESTS).then().statusCode(200).extract().jsonPath().getList("$")).isEmpty();
        var dbHits = Holdings.dbHits(db, text);
        var redisHits = Holdings.redisHits(redis, List.of(session), text);
        System.out.printf("confirmed forget: %d table(s) and %d key(s) hold the text%n", dbHits.size(), redisHits.size());
        assertThat(dbHits).as("the forgotten text, in every Mnemos table").isEmpty();
        assertThat(redisHits).as("the forgotten text, in the live session's keys").isEmpty();
    }

    @Test
    void aRejectLeavesTheProfileAndDropsTheQuotedText() throws Exception {
        String bob = "pending-" + UUID.randomUUID();
        String text = "I live in Tromso " + tag;
        addFacts(bob, text);
        McpSyncClient agent = spentAgent(bob);

        JsonNode pending = error(agent, "remember", Map.of("instruction", "forget that " + text));
        assertThat(pending.path("error").asText()).isEqualTo("pending_confirmation");
        long id = pending.path("pendingRequestId").asLong();
        assertThat(user(bob).get(REQUESTS).then().statusCode(200).extract().jsonPath().getString("[0].instruction"))
                .isEqualTo("forget that " + text);
        // a held call is checked as the call itself: an undo of no task of this user is not held
        assertThat(error(agent, "undo_task_promotion", Map.of("sessionId", "no-such-task")).path("error").asText())
                .isEqualTo("not_found");
        assertThat(error(agent, "forget_fact", Map.of("factId", 999_999_999L)).path("error").asText()).isEqualTo("not_found");

        JsonPath rejected = user(bob).post(REQUESTS + "/{id}/reject", id).then().statusCode(200).extract().jsonPath();
        assertThat(rejected.getString("request.status")).isEqualTo("REJECTED");
        assertThat(rejected.getString("request.instruction")).isNull();
        assertThat(user(bob).post(REQUESTS + "/{id}/reject", id).then().statusCode(200).extract().jsonPath()
                .getBoolean("repeated")).isTrue();
        user(bob).post(REQUESTS + "/{id}/confirm", id).then().statusCode(409).body("field", equalTo("id"))
                .body("status", equalTo("REJECTED"));
        user(bob).post(REQUESTS + "/{id}/confirm", 999_999_999L).then().statusCode(404).body("field", equalTo("id"));
        user(bob).post(REQUESTS + "/{id}/reject", "seven").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("id"));
        assertThat(facts(bob)).contains(text);
        assertThat(SqlRows.count(db, "select count(*) from pending_request where user_id = ? and instruction is not null",
                bob)).as("the rejected instruction's text").isZero();
    }

    @Test
    void concurrentConfirmsCarryTheRequestOutOnce() throws Exception {
        String carol = "pending-" + UUID.randomUUID();
        String text = "I play the oboe " + tag;
        long fact = addFacts(carol, text).get(0);
        long id = error(spentAgent(carol), "forget_fact", Map.of("factId", fact)).path("pendingRequestId").asLong();

        int racers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<JsonPath>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < racers; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return user(carol).post(REQUESTS + "/{id}/confirm", id).then().statusCode(200).extract().jsonPath();
                }));
            }
            start.countDown();
            int firsts = 0;
            for (Future<JsonPath> answer : answers) {
                firsts += answer.get().getBoolean("repeated") ? 0 : 1;
            }
            long forgets = SqlRows.count(db, "select count(*) from profile_event where user_id = ? and fact_id = ? and "
                    + "action = 'FORGET'", carol, fact);
            System.out.printf("%d concurrent confirms: %d carried it out, %d FORGET event(s)%n", racers, firsts, forgets);
            assertThat(firsts).isEqualTo(1);
            assertThat(forgets).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(facts(carol)).doesNotContain(text);
    }
}
