package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemos.testsupport.Tokens;
import io.modelcontextprotocol.client.McpSyncClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.server.mcp.McpClients.connected;
import static dev.mnemos.server.mcp.McpClients.error;
import static dev.mnemos.server.mcp.McpClients.ok;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 51 item 5: a poisoned agent must not forget the whole profile. With the default budget (one destructive call
 * per MCP session), an agent that calls forget_fact on each of the user's 4 facts forgets one; the rest answer
 * pending_confirmation and stay until the user decides (McpPendingRequestsTest).
 */
@QuarkusTest
class McpDestructiveBudgetTest {

    @TestHTTPResource("/")
    URI root;

    final List<McpSyncClient> open = new ArrayList<>();

    McpSyncClient as(String user) {
        McpSyncClient client = connected(root, Tokens.user(user));
        open.add(client);
        return client;
    }

    @AfterEach
    void close() {
        open.forEach(McpSyncClient::closeGracefully);
    }

    private static void addFacts(String user, String... texts) {
        int i = 0;
        for (String text : texts) {
            given().auth().oauth2(Tokens.user(user)).contentType("application/json")
                    .body(Map.of("category", "PREFERENCE", "slot", "budget.slot" + i++, "text", text))
                    .post("/v1/profile/facts").then().statusCode(201);
        }
    }

    private static List<Long> factIds(McpSyncClient client) {
        List<Long> ids = new ArrayList<>();
        ok(client, "get_profile", Map.of()).path("profile").path("facts").forEach(f -> ids.add(f.path("id").asLong()));
        return ids;
    }

    @Test
    void anAgentForgettingEveryFactForgetsOneAndTheRestStay() {
        String user = "mcp-budget-" + UUID.randomUUID();
        addFacts(user, "I like tea", "I live in Lyon", "I am vegetarian", "I prefer trains");
        McpSyncClient agent = as(user);
        List<Long> ids = factIds(agent);
        assertThat(ids).hasSize(4);

        // a call that fails changes nothing and spends nothing
        assertThat(error(agent, "forget_fact", Map.of("factId", 999_999_999L)).path("error").asText()).isEqualTo("not_found");
        int forgotten = 0;
        List<JsonNode> refused = new ArrayList<>();
        for (long id : ids) {
            var result = agent.callTool(new io.modelcontextprotocol.spec.McpSchema.CallToolRequest("forget_fact",
                    Map.of("factId", id)));
            JsonNode body = McpClients.parse(McpClients.text(result));
            if (Boolean.TRUE.equals(result.isError())) {
                refused.add(body);
            } else {
                forgotten++;
            }
        }
        assertThat(forgotten).as("destructive calls let through in one MCP session").isEqualTo(1);
        assertThat(refused).hasSize(3).allSatisfy(r -> {
            assertThat(r.path("error").asText()).isEqualTo("pending_confirmation");
            assertThat(r.path("tool").asText()).isEqualTo("forget_fact");
            assertThat(r.path("destructiveCallsPerSession").asInt()).isEqualTo(1);
        });
        assertThat(refused.stream().map(r -> r.path("pendingRequestId").asLong()).distinct()).hasSize(3);
        // "forget …" through remember is the same kind of call
        assertThat(error(agent, "remember", Map.of("instruction", "forget that I like tea")).path("error").asText())
                .isEqualTo("pending_confirmation");
        assertThat(given().auth().oauth2(Tokens.user(user)).get("/v1/profile/pending-requests").then().statusCode(200)
                .extract().jsonPath().getList("tool", String.class)).containsExactlyInAnyOrder("forget_fact",
                        "forget_fact", "forget_fact", "remember");
        List<String> left = given().auth().oauth2(Tokens.user(user)).get("/v1/profile").then().statusCode(200).extract()
                .path("facts.text");
        assertThat(left).hasSize(3);
        // the user's own REST call, outside the agent, is not limited
        given().auth().oauth2(Tokens.user(user)).delete("/v1/profile/facts/{id}", factIds(agent).get(0)).then()
                .statusCode(200);
        assertThat(factIds(agent)).hasSize(2);
    }

    @Test
    void aRetryWithTheSameKeyOrTheSameUndoCostsNothingMore() {
        String user = "mcp-budget-" + UUID.randomUUID();
        addFacts(user, "I like coffee", "I live in Oslo");
        McpSyncClient agent = as(user);
        List<Long> ids = factIds(agent);
        Map<String, Object> forget = Map.of("factId", ids.get(0), "idempotencyKey", "fgt-" + UUID.randomUUID());
        ok(agent, "forget_fact", forget);
        ok(agent, "forget_fact", forget);
        assertThat(error(agent, "forget_fact", Map.of("factId", ids.get(1))).path("error").asText())
                .isEqualTo("pending_confirmation");
        // another MCP session (the user reconnects) has a budget of its own
        ok(as(user), "forget_fact", Map.of("factId", ids.get(1)));
        assertThat(factIds(agent)).isEmpty();
    }
}
