package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemos.testsupport.Tokens;
import io.modelcontextprotocol.client.McpSyncClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.server.mcp.McpClients.connected;
import static dev.mnemos.server.mcp.McpClients.ok;
import static org.assertj.core.api.Assertions.assertThat;

/** Malformed arguments are tool errors naming the field, and nothing is written (the version does not move). */
@QuarkusTest
class McpMalformedInputTest {

    static final String NUL = "a\u0000b";

    @TestHTTPResource("/")
    URI root;

    final String user = "carol-" + UUID.randomUUID();
    McpSyncClient client;
    String id;

    @BeforeEach
    void start() {
        client = connected(root, Tokens.user(user));
        id = ok(client, "start_task", Map.of("goal", "a task")).path("sessionId").asText();
    }

    @AfterEach
    void close() {
        client.closeGracefully();
    }

    /** The call fails as invalid_argument on {@code field}; the session and the profile are as they were. */
    void rejected(String tool, Map<String, Object> args, String field) {
        JsonNode error = McpClients.error(client, tool, args);
        assertThat(error.path("error").asText()).as("%s %s", tool, args).isEqualTo("invalid_argument");
        assertThat(error.path("field").asText()).as("%s %s → %s", tool, args, error).isEqualTo(field);
        assertThat(error.path("message").asText()).startsWith(field + ": expected").contains("Nothing was written");
        assertUntouched();
    }

    void assertUntouched() {
        assertThat(ok(client, "get_task_state", Map.of("sessionId", id)).path("state").path("version").asLong()).isEqualTo(1);
        assertThat(ok(client, "list_tasks", Map.of()).path("sessionIds")).hasSize(1);
        assertThat(ok(client, "get_profile", Map.of()).path("profile").path("facts")).isEmpty();
    }

    static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
        Map<String, Object> copy = new HashMap<>(base);
        copy.put(key, value);
        return copy;
    }

    @Test
    void startTask() {
        rejected("start_task", Map.of(), "goal");
        rejected("start_task", with(Map.of(), "goal", null), "goal");
        rejected("start_task", Map.of("goal", 42), "goal");
        rejected("start_task", Map.of("goal", List.of("a")), "goal");
        rejected("start_task", Map.of("goal", "   "), "goal");
        rejected("start_task", Map.of("goal", NUL), "goal");
        rejected("start_task", Map.of("goals", "typo"), "goals");
        rejected("start_task", Map.of("goal", "g", "constraints", "budget"), "constraints");
        rejected("start_task", Map.of("goal", "g", "constraints", List.of(Map.of("text", "t", "scope", "FOREVER"))),
                "constraints[0].scope");
        rejected("start_task", Map.of("goal", "g", "constraints", List.of(Map.of("text", "t", "scope", "task"))),
                "constraints[0].scope");
        rejected("start_task", Map.of("goal", "g", "constraints", List.of(Map.of("text", "t"))), "constraints[0].scope");
        rejected("start_task", Map.of("goal", "g", "constraints", List.of(Map.of("text", "ok", "scope", "TASK"),
                Map.of("text", NUL, "scope", "TASK"))), "constraints[1].text");
        rejected("start_task", Map.of("goal", "g", "constraints", List.of(Map.of("text", "t", "scope", "TASK", "why", "x"))),
                "constraints[0].why");
        // a runtime limit, named as the tool names it
        rejected("start_task", Map.of("goal", "x".repeat(10_001)), "goal");
    }

    @Test
    void recordStep() {
        Map<String, Object> good = Map.of("sessionId", id, "expectedVersion", 1, "patch", Map.of("goal", "g"));
        rejected("record_step", with(good, "expectedVersion", "1"), "expectedVersion");
        rejected("record_step", with(good, "expectedVersion", 1.5), "expectedVersion");
        rejected("record_step", with(good, "expectedVersion", 0), "expectedVersion");
        rejected("record_step", with(good, "expectedVersion", true), "expectedVersion");
        rejected("record_step", with(good, "expectedversion", 1), "expectedversion");
        rejected("record_step", Map.of("sessionId", id, "expectedVersion", 1), "patch");
        rejected("record_step", with(good, "patch", "goal=g"), "patch");
        rejected("record_step", with(good, "patch", Map.of()), "patch");
        rejected("record_step", with(good, "patch", Map.of("goal", NUL)), "patch.goal");
        rejected("record_step", with(good, "patch", Map.of("goal", 7)), "patch.goal");
        rejected("record_step", with(good, "patch", Map.of("addPlans", Map.of("content", "p"))), "patch.addPlans");
        rejected("record_step", with(good, "patch", Map.of("addConstraints", List.of(Map.of("text", "t", "scope", "NEVER")))),
                "patch.addConstraints[0].scope");
        rejected("record_step", with(good, "patch", Map.of("putCollected", Map.of("month", 4))), "patch.putCollected.month");
        rejected("record_step", with(good, "patch", Map.of("putCollected", Map.of("month", NUL))), "patch.putCollected.month");
        rejected("record_step", with(good, "patch", Map.of("stepPointer", Map.of("index", -1, "name", "n"))),
                "patch.stepPointer.index");
        rejected("record_step", with(good, "patch", Map.of("stepPointer", Map.of("name", "n"))), "patch.stepPointer.index");
        rejected("record_step", with(good, "patch", Map.of("addPlan", Map.of("content", "p", "score", 11))),
                "patch.addPlan.score");
        rejected("record_step", with(good, "patch", Map.of("addObservations", List.of(Map.of("text", "t", "explicit", "yes")))),
                "patch.addObservations[0].explicit");
        // the runtime's own check: evaluating a plan that does not exist
        rejected("record_step", with(good, "patch", Map.of("evaluatePlan", Map.of("version", 3, "score", 5))),
                "patch.evaluatePlan.version");
        rejected("record_step", with(good, "sessionId", 42), "sessionId");
        rejected("record_step", with(good, "sessionId", "../../etc"), "sessionId");
        rejected("record_step", with(good, "sessionId", id + "\u0000"), "sessionId");
        rejected("record_step", with(good, "note", NUL), "note");
    }

    @Test
    void otherSessionTools() {
        rejected("add_observation", Map.of("sessionId", id, "text", "t", "explicit", "yes"), "explicit");
        rejected("add_observation", Map.of("sessionId", id, "text", "t", "slot", "Output Language"), "slot");
        rejected("add_observation", Map.of("sessionId", id, "text", "t", "kind", "WISH"), "kind");
        rejected("add_observation", Map.of("sessionId", id, "text", "t", "scope", "ALWAYS"), "scope");
        rejected("add_observation", Map.of("sessionId", id, "text", ""), "text");
        rejected("add_observation", Map.of("sessionId", id, "text", NUL), "text");
        rejected("add_observation", Map.of("sessionId", id, "text", "t", "evidence", NUL), "evidence");
        rejected("rollback_task", Map.of("sessionId", id, "toVersion", "1"), "toVersion");
        rejected("rollback_task", Map.of("sessionId", id), "toVersion");
        rejected("fork_task", Map.of("sessionId", id, "fromVersion", -3), "fromVersion");
        rejected("get_version", Map.of("sessionId", id, "version", "latest"), "version");
        rejected("list_versions", Map.of("sessionId", id, "limit", 5000), "limit");
        rejected("get_task_state", Map.of(), "sessionId");
        rejected("end_task", Map.of("sessionId", id, "force", true), "force");
        rejected("get_memory_block", Map.of("sessionId", id, "message", NUL), "message");
    }

    @Test
    void profileTools() {
        rejected("remember", Map.of(), "instruction");
        rejected("remember", Map.of("instruction", 5), "instruction");
        rejected("remember", Map.of("instruction", "remember " + NUL), "instruction");
        rejected("remember", Map.of("instruction", "  "), "instruction");
        rejected("forget_fact", Map.of("factId", "x"), "factId");
        rejected("confirm_candidate", Map.of("candidateId", 1.5), "candidateId");
        rejected("reject_candidate", Map.of(), "candidateId");
        rejected("get_profile", Map.of("userId", "someone-else"), "userId");
        rejected("list_tasks", Map.of("userId", "someone-else"), "userId");
        rejected("list_tasks", Map.of("cursor", "not a cursor"), "cursor");
        rejected("list_tasks", Map.of("limit", 0), "limit");
        rejected("list_tasks", Map.of("limit", 201), "limit");
    }

    @Test
    void listTasksPagesNewestFirst() throws InterruptedException {
        // sessions are ordered by their creation millisecond: keep the three apart
        Thread.sleep(5);
        String second = ok(client, "start_task", Map.of("goal", "second")).path("sessionId").asText();
        Thread.sleep(5);
        String third = ok(client, "start_task", Map.of("goal", "third")).path("sessionId").asText();
        JsonNode first = ok(client, "list_tasks", Map.of("limit", 2));
        assertThat(first.path("sessionIds")).extracting(JsonNode::asText).containsExactly(third, second);
        String cursor = first.path("nextCursor").asText();
        assertThat(cursor).isNotBlank();
        JsonNode rest = ok(client, "list_tasks", Map.of("limit", 2, "cursor", cursor));
        assertThat(rest.path("sessionIds")).extracting(JsonNode::asText).containsExactly(id);
        assertThat(rest.has("nextCursor")).isFalse();
        assertThat(ok(client, "list_tasks", Map.of()).path("sessionIds")).hasSize(3);
    }
}
