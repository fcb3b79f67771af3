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
import static org.assertj.core.api.Assertions.assertThat;

/** undo_task_promotion through a real MCP client: undo, the refusal naming the facts, force, and ownership. */
@QuarkusTest
class McpUndoTest {

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

    private static String endedTask(McpSyncClient client, String text, String slot) {
        String id = ok(client, "start_task", Map.of("goal", "a task")).path("sessionId").asText();
        ok(client, "add_observation", Map.of("sessionId", id, "text", text, "slot", slot, "explicit", true));
        assertThat(ok(client, "end_task", Map.of("sessionId", id)).path("promoted").size()).isEqualTo(1);
        return id;
    }

    private static List<String> profile(McpSyncClient client) {
        List<String> texts = new ArrayList<>();
        ok(client, "get_profile", Map.of()).path("profile").path("facts").forEach(f -> texts.add(f.path("text").asText()));
        return texts;
    }

    @Test
    void undoesATaskRefusesOverALaterChangeAndForces() {
        String erin = "mcp-erin-" + UUID.randomUUID();
        McpSyncClient client = as(erin);
        String chinese = endedTask(client, "Always answer in Chinese", "output.language");
        JsonNode undone = ok(client, "undo_task_promotion", Map.of("sessionId", chinese));
        assertThat(undone.path("changes").findValuesAsText("action")).contains("UNDO", "RETRACT");
        assertThat(profile(client)).isEmpty();
        assertThat(ok(client, "undo_task_promotion", Map.of("sessionId", chinese)).path("repeated").asBoolean()).isTrue();

        // that undo spent this MCP session's destructive call (McpDestructiveBudgetTest): the user reconnects
        assertThat(error(client, "undo_task_promotion", Map.of("sessionId", "other-task")).path("error").asText())
                .as("beyond the budget an undo is held for the user, once checked: no such task").isEqualTo("not_found");
        client = as(erin);
        String paris = endedTask(client, "I live in Paris", "home.city");
        endedTask(client, "I live in Rome", "home.city");
        JsonNode refused = error(client, "undo_task_promotion", Map.of("sessionId", paris));
        assertThat(refused.path("error").asText()).isEqualTo("conflict");
        assertThat(refused.path("field").asText()).isEqualTo("force");
        assertThat(refused.path("factIds").size()).isEqualTo(1);
        assertThat(refused.path("message").asText()).contains("fact " + refused.path("factIds").get(0).asLong());
        assertThat(profile(client)).containsExactly("I live in Rome");
        ok(client, "undo_task_promotion", Map.of("sessionId", paris, "force", true));
        assertThat(profile(client)).containsExactly("I live in Rome");

        // another user's task is not found, exactly as a missing one
        JsonNode other = error(as("mcp-frank-" + UUID.randomUUID()), "undo_task_promotion", Map.of("sessionId", paris));
        assertThat(other.path("error").asText()).isEqualTo("not_found");
        assertThat(other.path("field").asText()).isEqualTo("sessionId");
    }
}
