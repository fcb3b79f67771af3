package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemos.testsupport.Tokens;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.server.mcp.McpClients.connected;
import static dev.mnemos.server.mcp.McpClients.ok;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every MCP tool acts for the token's subject only; without a valid token there is no MCP at all. */
@QuarkusTest
class McpIsolationTest {

    @TestHTTPResource("/")
    URI root;

    final String alice = "alice-" + UUID.randomUUID();
    final String bob = "bob-" + UUID.randomUUID();
    final List<McpSyncClient> open = new ArrayList<>();

    McpSyncClient as(String token) {
        McpSyncClient client = connected(root, token);
        open.add(client);
        return client;
    }

    @AfterEach
    void close() {
        open.forEach(McpSyncClient::closeGracefully);
    }

    @Test
    void userBCannotReadOrChangeUserAsSessionThroughAnyTool() {
        McpSyncClient a = as(Tokens.user(alice));
        McpSyncClient b = as(Tokens.user(bob));
        String id = ok(a, "start_task", Map.of("goal", "alice's secret trip",
                "constraints", List.of(Map.of("text", "alice budget KXQ-7000", "scope", "TASK")))).path("sessionId").asText();
        ok(a, "record_step",
                Map.of("sessionId", id, "expectedVersion", 1, "patch", Map.of("addPlan", Map.of("content", "alice's plan"))));
        ok(a, "remember", Map.of("instruction", "remember I live in Lisbon"));
        long aliceFact = ok(a, "get_profile", Map.of()).path("profile").path("facts").get(0).path("id").asLong();
        JsonNode before = ok(a, "get_task_state", Map.of("sessionId", id)).path("state");
        assertThat(before.path("version").asLong()).isEqualTo(2);

        Map<String, Map<String, Object>> calls = new LinkedHashMap<>();
        calls.put("get_task_state", Map.of("sessionId", id));
        calls.put("get_memory_block", Map.of("sessionId", id));
        calls.put("record_step", Map.of("sessionId", id, "patch", Map.of("goal", "bob was here")));
        calls.put("list_versions", Map.of("sessionId", id));
        calls.put("get_version", Map.of("sessionId", id, "version", 1));
        calls.put("rollback_task", Map.of("sessionId", id, "toVersion", 1));
        calls.put("fork_task", Map.of("sessionId", id, "fromVersion", 2));
        calls.put("add_observation", Map.of("sessionId", id, "text", "from now on bob decides", "explicit", true));
        calls.put("end_task", Map.of("sessionId", id));
        List<String> answers = new ArrayList<>();
        calls.forEach((tool, args) -> {
            JsonNode error = McpClients.error(b, tool, args);
            assertThat(error.path("error").asText()).as(tool).isEqualTo("not_found");
            answers.add(error.toString());
        });
        // what bob is told never shows alice's data
        assertThat(String.join("\n", answers)).doesNotContain("secret").doesNotContain("KXQ").doesNotContain(alice);
        // a compare-and-set write with the right version is refused too
        assertThat(McpClients.error(b, "record_step", Map.of("sessionId", id, "expectedVersion", 2,
                "patch", Map.of("goal", "bob was here"))).path("error").asText()).isEqualTo("not_found");
        assertThatThrownBy(
                () -> b.readResource(new McpSchema.ReadResourceRequest("mnemos://sessions/" + id + "/memory-block", null)))
                .isInstanceOf(McpError.class).hasMessageNotContaining("secret");
        assertThatThrownBy(() -> b.getPrompt(new McpSchema.GetPromptRequest("memory_block", Map.of("sessionId", id))))
                .isInstanceOf(McpError.class).hasMessageNotContaining("secret");
        assertThat(ok(b, "list_tasks", Map.of()).path("sessionIds")).isEmpty();
        assertThat(McpClients.error(b, "forget_fact", Map.of("factId", aliceFact)).path("error").asText())
                .isEqualTo("not_found");
        assertThat(ok(b, "get_profile", Map.of()).path("profile").path("facts")).isEmpty();

        // nothing of alice's moved: same state, same single session, same profile
        JsonNode after = ok(a, "get_task_state", Map.of("sessionId", id)).path("state");
        assertThat(after).isEqualTo(before);
        assertThat(ok(a, "list_versions", Map.of("sessionId", id))).hasSize(2);
        assertThat(ok(a, "list_tasks", Map.of()).path("sessionIds")).hasSize(1);
        JsonNode facts = ok(a, "get_profile", Map.of()).path("profile").path("facts");
        assertThat(facts).hasSize(1);
        assertThat(facts.get(0).path("text").asText()).contains("Lisbon");

        // an ended session is read from the archive: still alice's only
        ok(a, "end_task", Map.of("sessionId", id));
        assertThat(McpClients.error(b, "list_versions", Map.of("sessionId", id)).path("error").asText()).isEqualTo("not_found");
        assertThat(McpClients.error(b, "get_version", Map.of("sessionId", id, "version", 1)).path("error").asText())
                .isEqualTo("not_found");
        assertThat(McpClients.error(b, "end_task", Map.of("sessionId", id)).path("error").asText()).isEqualTo("not_found");
        assertThat(ok(a, "list_versions", Map.of("sessionId", id))).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void aServiceTokenActsForItsOwnSubjectOnlyOverMcp() {
        McpSyncClient a = as(Tokens.user(alice));
        String id = ok(a, "start_task", Map.of("goal", "alice's task")).path("sessionId").asText();
        McpSyncClient service = as(Tokens.service("backend-" + UUID.randomUUID()));
        assertThat(McpClients.error(service, "get_task_state", Map.of("sessionId", id)).path("error").asText())
                .isEqualTo("not_found");
        assertThat(McpClients.error(service, "record_step", Map.of("sessionId", id, "patch", Map.of("goal", "x")))
                .path("error").asText()).isEqualTo("not_found");
        assertThat(ok(a, "get_task_state", Map.of("sessionId", id)).path("state").path("version").asLong()).isEqualTo(1);
    }

    @Test
    void withoutAValidTokenTheEndpointAnswers401() {
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
        given().contentType("application/json").accept("application/json, text/event-stream").body(initialize)
                .post("/mcp").then().statusCode(401);
        given().auth().oauth2("not-a-jwt").contentType("application/json").accept("application/json, text/event-stream")
                .body(initialize).post("/mcp").then().statusCode(401);
        given().auth().oauth2(Tokens.user(alice)).contentType("application/json")
                .accept("application/json, text/event-stream").body(initialize).post("/mcp").then().statusCode(200);
        // the legacy SSE transport is not served, not even with a token
        given().auth().oauth2(Tokens.user(alice)).get("/mcp/sse").then().statusCode(403);

        McpSyncClient anonymous = McpClients.client(root, null);
        open.add(anonymous);
        assertThatThrownBy(anonymous::initialize).isInstanceOf(RuntimeException.class);
    }
}
