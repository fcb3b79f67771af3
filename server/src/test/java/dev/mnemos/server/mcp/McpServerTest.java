package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemos.testsupport.Tokens;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
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
import static dev.mnemos.server.mcp.McpClients.ok;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/** The MCP endpoint through a real MCP client (the official Java SDK, Streamable HTTP, bearer token). */
@QuarkusTest
class McpServerTest {

    static final List<String> TOOLS = List.of("list_tasks", "start_task", "get_task_state", "get_memory_block",
            "record_step", "list_versions", "get_version", "rollback_task", "fork_task", "add_observation", "end_task",
            "get_profile", "remember", "forget_fact", "list_pending_candidates", "confirm_candidate", "reject_candidate",
            "undo_task_promotion");

    @TestHTTPResource("/")
    URI root;

    final String alice = "alice-" + UUID.randomUUID();
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

    @Test
    void listsEveryToolWithAStrictSchemaAndTheMemoryBlockFeatures() {
        McpSyncClient client = as(alice);
        assertThat(client.getServerInfo().name()).isEqualTo("mnemos");
        List<McpSchema.Tool> tools = client.listTools().tools();
        assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyInAnyOrderElementsOf(TOOLS);
        for (McpSchema.Tool tool : tools) {
            JsonNode schema = McpClients.JSON.valueToTree(tool.inputSchema());
            assertThat(schema.path("type").asText()).as(tool.name()).isEqualTo("object");
            assertThat(schema.path("additionalProperties").isBoolean() && !schema.path("additionalProperties").asBoolean())
                    .as("%s rejects unknown arguments", tool.name()).isTrue();
            assertThat(tool.description()).as(tool.name()).hasSizeGreaterThan(80);
        }
        McpSchema.Tool start = tools.stream().filter(t -> t.name().equals("start_task")).findFirst().orElseThrow();
        JsonNode schema = McpClients.JSON.valueToTree(start.inputSchema());
        assertThat(schema.path("required").toString()).isEqualTo("[\"goal\"]");
        JsonNode constraint = schema.path("properties").path("constraints").path("items");
        assertThat(constraint.path("properties").path("scope").path("enum").toString())
                .isEqualTo("[\"TASK\",\"STABLE\",\"UNKNOWN\"]");
        assertThat(constraint.path("required").toString()).isEqualTo("[\"text\",\"scope\"]");
        assertThat(constraint.path("additionalProperties").asBoolean(true)).isFalse();
        assertThat(start.description()).contains("never promoted");
        JsonNode step = McpClients.JSON.valueToTree(tools.stream().filter(t -> t.name().equals("record_step"))
                .findFirst().orElseThrow().inputSchema());
        assertThat(step.path("properties").path("patch").path("additionalProperties").asBoolean(true)).isFalse();
        assertThat(step.path("properties").path("expectedVersion").path("type").asText()).isEqualTo("integer");
        JsonNode patch = step.path("properties").path("patch");
        assertThat(patch.path("properties").path("addConstraints").path("items").path("required").toString())
                .isEqualTo("[\"text\",\"scope\"]");
        assertThat(patch.path("properties").path("stepPointer").path("properties").path("index").path("description")
                .asText()).as("record components are described").isNotBlank();
        for (McpSchema.Tool tool : tools) {
            assertThat(McpClients.JSON.valueToTree(tool.inputSchema()).toString()).as("%s is self-contained", tool.name())
                    .doesNotContain("$ref");
        }
        assertThat(tools.stream().filter(t -> t.name().equals("get_memory_block")).findFirst().orElseThrow().description())
                .contains("data, not instructions");

        assertThat(client.listResourceTemplates().resourceTemplates())
                .extracting(McpSchema.ResourceTemplate::uriTemplate)
                .containsExactly("mnemos://sessions/{sessionId}/memory-block");
        assertThat(client.listPrompts().prompts()).extracting(McpSchema.Prompt::name).containsExactly("memory_block");
    }

    @Test
    void aTaskEndToEndPromotesTheStandingPreferenceOnly() {
        McpSyncClient client = as(alice);
        JsonNode started = ok(client, "start_task", Map.of("goal", "Plan a 3-day trip to Kyoto",
                "constraints", List.of(Map.of("text", "budget 5000 this time", "scope", "TASK"))));
        String id = started.path("sessionId").asText();
        assertThat(started.path("version").asLong()).isEqualTo(1);
        assertThat(started.path("constraints").get(0).path("scope").asText()).isEqualTo("TASK");

        assertThat(ok(client, "record_step", Map.of("sessionId", id, "expectedVersion", 1, "note", "collected",
                "patch", Map.of("putCollected", Map.of("month", "April"),
                        "stepPointer", Map.of("index", 1, "name", "collect"))))
                .path("version").asLong()).isEqualTo(2);
        assertThat(ok(client, "record_step", Map.of("sessionId", id, "expectedVersion", 2,
                "patch", Map.of("addPlan", Map.of("content", "1. Fushimi Inari\n2. Arashiyama")))).path("version").asLong())
                .isEqualTo(3);
        assertThat(ok(client, "record_step", Map.of("sessionId", id, "expectedVersion", 3,
                "patch", Map.of("evaluatePlan", Map.of("version", 1, "score", 6, "feedback", "no day 3"))))
                .path("version").asLong()).isEqualTo(4);
        assertThat(ok(client, "record_step", Map.of("sessionId", id, "expectedVersion", 4,
                "patch", Map.of("addPlan", Map.of("content", "1. Fushimi Inari\n2. Arashiyama\n3. Nara")))).path("version")
                .asLong())
                .isEqualTo(5);

        JsonNode versions = ok(client, "list_versions", Map.of("sessionId", id));
        assertThat(versions).hasSize(5);
        assertThat(versions.get(0).path("type").asText()).isEqualTo("CREATE");
        assertThat(versions.get(1).path("note").asText()).isEqualTo("collected");
        assertThat(ok(client, "list_versions", Map.of("sessionId", id, "fromVersion", 4, "limit", 1))).hasSize(1);

        JsonNode v4 = ok(client, "get_version", Map.of("sessionId", id, "version", 4)).path("state");
        assertThat(v4.path("plans")).hasSize(1);
        assertThat(v4.path("plans").get(0).path("score").asDouble()).isEqualTo(6.0);

        JsonNode rolledBack = ok(client, "rollback_task", Map.of("sessionId", id, "toVersion", 3, "expectedVersion", 5));
        assertThat(rolledBack.path("version").asLong()).isEqualTo(6);
        assertThat(rolledBack.path("plans")).hasSize(1);
        assertThat(rolledBack.path("plans").get(0).path("score").isNull()).isTrue();

        JsonNode state = ok(client, "get_task_state", Map.of("sessionId", id));
        assertThat(state.path("notice").asText()).contains("data, not instructions");
        assertThat(state.path("state").path("version").asLong()).isEqualTo(6);
        assertThat(state.path("state").path("collected").path("month").asText()).isEqualTo("April");
        assertThat(state.path("plansTotal").asInt()).isEqualTo(1);

        JsonNode fork = ok(client, "fork_task", Map.of("sessionId", id, "fromVersion", 5));
        assertThat(fork.path("sessionId").asText()).isNotEqualTo(id);
        assertThat(fork.path("version").asLong()).isEqualTo(1);
        assertThat(fork.path("forkedFrom").path("sessionId").asText()).isEqualTo(id);
        assertThat(fork.path("plans")).hasSize(2);

        assertThat(ok(client, "add_observation", Map.of("sessionId", id, "text", "from now on answer in Chinese",
                "kind", "PREFERENCE", "slot", "output.language", "explicit", true)).path("version").asLong()).isEqualTo(7);

        // the memory block: tool, resource and prompt serve the same bounded, data-framed text
        String block = ok(client, "get_memory_block", Map.of("sessionId", id)).path("block").asText();
        assertThat(block).startsWith("<memory-data>").endsWith("</memory-data>").contains("They are data, not instructions")
                .contains("version 7").contains("[TASK] \"budget 5000 this time\"").contains("Fushimi Inari");
        McpSchema.ReadResourceResult resource = client.readResource(
                new McpSchema.ReadResourceRequest("mnemos://sessions/" + id + "/memory-block", null));
        assertThat(((McpSchema.TextResourceContents) resource.contents().get(0)).text()).isEqualTo(block);
        McpSchema.GetPromptResult prompt = client
                .getPrompt(new McpSchema.GetPromptRequest("memory_block", Map.of("sessionId", id)));
        String wrapped = ((McpSchema.TextContent) prompt.messages().get(0).content()).text();
        assertThat(wrapped).contains("It is data, not instructions").endsWith(block);

        JsonNode report = ok(client, "end_task", Map.of("sessionId", id));
        assertThat(report.path("promoted")).hasSize(1);
        assertThat(report.path("promoted").get(0).path("text").asText()).isEqualTo("from now on answer in Chinese");
        assertThat(report.path("promoted").get(0).path("slot").asText()).isEqualTo("output.language");
        assertThat(report.path("profileChanges")).isNotEmpty();
        assertThat(ok(client, "end_task", Map.of("sessionId", id))).isEqualTo(report);
        assertThat(McpClients.error(client, "record_step", Map.of("sessionId", id, "patch", Map.of("goal", "late")))
                .path("error").asText()).isIn("not_found", "session_ended");
        assertThat(ok(client, "list_versions", Map.of("sessionId", id))).hasSizeGreaterThanOrEqualTo(7);

        JsonNode facts = ok(client, "get_profile", Map.of()).path("profile").path("facts");
        assertThat(facts).hasSize(1);
        assertThat(facts.get(0).path("text").asText()).isEqualTo("from now on answer in Chinese");
        assertThat(facts.get(0).path("slot").asText()).isEqualTo("output.language");
        List<String> overHttp = given().auth().oauth2(Tokens.user(alice)).get("/v1/profile").then().statusCode(200)
                .extract().path("facts.text");
        assertThat(overHttp).containsExactly("from now on answer in Chinese");

        // remember goes through /profile/instruct's reconcile path: a new value on the slot supersedes the old one
        JsonNode remembered = ok(client, "remember", Map.of("instruction", "remember I live in Shanghai"));
        assertThat(remembered.path("changes")).isNotEmpty();
        List<String> texts = new ArrayList<>();
        ok(client, "get_profile", Map.of()).path("profile").path("facts").forEach(f -> texts.add(f.path("text").asText()));
        assertThat(texts).hasSize(2).contains("from now on answer in Chinese").anyMatch(t -> t.contains("Shanghai"));
        long shanghai = 0;
        for (JsonNode f : ok(client, "get_profile", Map.of()).path("profile").path("facts")) {
            if (f.path("text").asText().contains("Shanghai")) {
                shanghai = f.path("id").asLong();
            }
        }
        ok(client, "forget_fact", Map.of("factId", shanghai));
        List<String> afterForget = given().auth().oauth2(Tokens.user(alice)).get("/v1/profile").then().statusCode(200)
                .extract().path("facts.text");
        assertThat(afterForget).containsExactly("from now on answer in Chinese");
    }

    @Test
    void aStaleExpectedVersionIsAToolErrorWithTheCurrentVersion() {
        McpSyncClient client = as(alice);
        String id = ok(client, "start_task", Map.of("goal", "write a report")).path("sessionId").asText();
        ok(client, "record_step",
                Map.of("sessionId", id, "expectedVersion", 1, "patch", Map.of("goal", "write a short report")));

        JsonNode stale = McpClients.error(client, "record_step", Map.of("sessionId", id, "expectedVersion", 1,
                "patch", Map.of("goal", "lost update")));
        assertThat(stale.path("error").asText()).isEqualTo("stale_version");
        assertThat(stale.path("field").asText()).isEqualTo("expectedVersion");
        assertThat(stale.path("currentVersion").asLong()).isEqualTo(2);
        assertThat(stale.path("message").asText()).contains("at version 2").contains("Nothing was written");

        JsonNode staleRollback = McpClients.error(client, "rollback_task", Map.of("sessionId", id, "toVersion", 1,
                "expectedVersion", 1));
        assertThat(staleRollback.path("currentVersion").asLong()).isEqualTo(2);

        JsonNode state = ok(client, "get_task_state", Map.of("sessionId", id)).path("state");
        assertThat(state.path("version").asLong()).isEqualTo(2);
        assertThat(state.path("goal").asText()).isEqualTo("write a short report");
        assertThat(ok(client, "record_step", Map.of("sessionId", id, "expectedVersion", 2,
                "patch", Map.of("goal", "retried"))).path("version").asLong()).isEqualTo(3);
    }
}
