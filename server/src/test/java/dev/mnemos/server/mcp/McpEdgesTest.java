package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemos.testsupport.Tokens;
import io.modelcontextprotocol.client.McpSyncClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static dev.mnemos.server.mcp.McpClients.connected;
import static dev.mnemos.server.mcp.McpClients.ok;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * MCP edges (issue 33, item 9): malformed JSON-RPC messages get JSON-RPC errors (never an HTTP 500) and one
 * short log line each (no stack trace); a lone surrogate is refused as over REST; the write tools take an
 * optional idempotency key, applied once as over REST.
 */
@QuarkusTest
class McpEdgesTest {

    @TestHTTPResource("/")
    URI root;

    final String user = "mcp-edges-" + UUID.randomUUID();
    final String token = Tokens.user(user);
    final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() > Level.FINE.intValue()) {
                logged.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    McpSyncClient client;

    @BeforeEach
    void start() {
        client = connected(root, token);
        Logger.getLogger("").addHandler(capture);
    }

    @AfterEach
    void stop() {
        Logger.getLogger("").removeHandler(capture);
        client.closeGracefully();
    }

    Response post(String body) {
        return given().auth().oauth2(token).contentType("application/json").accept("application/json, text/event-stream")
                .body(body).post("/mcp");
    }

    /** The answer is a JSON-RPC error with {@code code}; exactly one log line, without a stack trace, came with it. */
    void jsonRpcError(String body, int status, int code) {
        logged.clear();
        Response answer = post(body);
        assertThat(answer.statusCode()).as("%s answered %s", body, answer.asString()).isEqualTo(status);
        JsonNode error = McpClients.parse(answer.asString());
        assertThat(error.path("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(error.path("error").path("code").asInt()).as("%s answered %s", body, error).isEqualTo(code);
        assertThat(error.path("error").path("message").asText()).isNotBlank();
        assertThat(logged).as("log records of %s", body).allMatch(r -> r.getThrown() == null).hasSize(1);
    }

    @Test
    void malformedMessagesAreJsonRpcErrorsWithOneShortLogLine() {
        jsonRpcError("[]", 400, -32600);
        jsonRpcError("[1]", 400, -32600);
        jsonRpcError("7", 400, -32600);
        jsonRpcError("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}", 400, -32600);
        jsonRpcError("{\"jsonrpc\":2,\"id\":1,\"method\":\"tools/list\"}", 400, -32600);
        jsonRpcError("{not json", 400, -32700);
        jsonRpcError("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":5}", 200, -32602);
        for (String arguments : List.of("\"goal\"", "[]", "5", "true")) {
            String call = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"start_task\","
                    + "\"arguments\":" + arguments + "}}";
            jsonRpcError(call, 200, -32602);
            assertThat(McpClients.parse(post(call).asString()).path("id").asInt()).isEqualTo(9);
        }
        jsonRpcError("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":5}}", 200, -32602);
        assertThat(ok(client, "list_tasks", Map.of()).path("sessionIds")).isEmpty();
    }

    /** A new MCP session's id, initialised over plain HTTP. */
    String mcpSession() {
        String session = given().auth().oauth2(token).contentType("application/json")
                .accept("application/json, text/event-stream")
                .body("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                        + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"edges\",\"version\":\"1\"}}}")
                .post("/mcp").then().statusCode(200).extract().header("Mcp-Session-Id");
        given().auth().oauth2(token).contentType("application/json").accept("application/json, text/event-stream")
                .header("Mcp-Session-Id", session).body("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .post("/mcp").then().statusCode(202);
        return session;
    }

    /**
     * A tool error's JSON body for a call whose arguments are sent as written: a lone surrogate goes as a JSON
     * escape (a client encoding it as UTF-8 would send {@code ?} instead).
     */
    JsonNode rawError(String session, String tool, String arguments) {
        String answer = given().auth().oauth2(token).contentType("application/json")
                .accept("application/json, text/event-stream").header("Mcp-Session-Id", session)
                .body("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                        + "\",\"arguments\":" + arguments + "}}")
                .post("/mcp").then().statusCode(200).extract().asString();
        JsonNode result = McpClients.parse(answer).path("result");
        assertThat(result.path("isError").asBoolean()).as("%s answered %s", tool, answer).isTrue();
        return McpClients.parse(result.path("content").get(0).path("text").asText());
    }

    @Test
    void aLoneSurrogateIsRefusedAsOverRest() {
        String id = ok(client, "start_task", Map.of("goal", "a task")).path("sessionId").asText();
        String session = mcpSession();
        for (String bad : List.of("a\\ud800b", "\\udc00tail", "end\\ud800")) {
            JsonNode error = rawError(session, "record_step",
                    "{\"sessionId\":\"" + id + "\",\"patch\":{\"goal\":\"" + bad + "\"}}");
            assertThat(error.path("error").asText()).isEqualTo("invalid_argument");
            assertThat(error.path("field").asText()).isEqualTo("patch.goal");
            assertThat(error.path("message").asText()).contains("surrogate");
            assertThat(rawError(session, "add_observation", "{\"sessionId\":\"" + id + "\",\"text\":\"" + bad + "\"}")
                    .path("field").asText()).isEqualTo("text");
            // in a key, the JSON parser itself refuses it: a JSON-RPC parse error, before any tool runs
            Response key = given().auth().oauth2(token).contentType("application/json")
                    .accept("application/json, text/event-stream").header("Mcp-Session-Id", session)
                    .body("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":"
                            + "\"record_step\",\"arguments\":{\"sessionId\":\"" + id + "\",\"patch\":{\"putCollected\":{\""
                            + bad + "\":\"v\"}}}}}")
                    .post("/mcp");
            assertThat(key.statusCode()).isEqualTo(400);
            assertThat(McpClients.parse(key.asString()).path("error").path("code").asInt()).isEqualTo(-32700);
            assertThat(rawError(session, "remember", "{\"instruction\":\"remember " + bad + "\"}").path("field")
                    .asText()).isEqualTo("instruction");
        }
        assertThat(ok(client, "get_task_state", Map.of("sessionId", id)).path("state").path("version").asLong())
                .isEqualTo(1);
        assertThat(ok(client, "get_profile", Map.of()).path("profile").path("facts")).isEmpty();
    }

    @Test
    void writeToolsTakeAnIdempotencyKey() {
        String key = UUID.randomUUID().toString();
        JsonNode first = ok(client, "start_task", Map.of("goal", "keyed", "idempotencyKey", key));
        JsonNode again = ok(client, "start_task", Map.of("goal", "keyed", "idempotencyKey", key));
        String id = first.path("sessionId").asText();
        assertThat(again.path("sessionId").asText()).isEqualTo(id);
        assertThat(ok(client, "list_tasks", Map.of()).path("sessionIds")).hasSize(1);
        // the same key with another request writes nothing
        assertThat(McpClients.error(client, "start_task", Map.of("goal", "other", "idempotencyKey", key)).path("error")
                .asText()).isEqualTo("idempotency_key_reused");

        Map<String, Object> step = Map.of("sessionId", id, "patch", Map.of("goal", "g2"), "idempotencyKey", "step-" + key);
        assertThat(ok(client, "record_step", step).path("version").asLong()).isEqualTo(2);
        assertThat(ok(client, "record_step", step).path("version").asLong()).isEqualTo(2);
        Map<String, Object> observation = Map.of("sessionId", id, "text", "likes tea", "idempotencyKey", "obs-" + key);
        assertThat(ok(client, "add_observation", observation).path("version").asLong()).isEqualTo(3);
        assertThat(ok(client, "add_observation", observation).path("version").asLong()).isEqualTo(3);
        Map<String, Object> rollback = Map.of("sessionId", id, "toVersion", 1, "idempotencyKey", "rb-" + key);
        assertThat(ok(client, "rollback_task", rollback).path("version").asLong()).isEqualTo(4);
        assertThat(ok(client, "rollback_task", rollback).path("version").asLong()).isEqualTo(4);
        Map<String, Object> fork = Map.of("sessionId", id, "fromVersion", 2, "idempotencyKey", "fork-" + key);
        String forked = ok(client, "fork_task", fork).path("sessionId").asText();
        assertThat(ok(client, "fork_task", fork).path("sessionId").asText()).isEqualTo(forked);
        assertThat(ok(client, "get_task_state", Map.of("sessionId", id)).path("state").path("version").asLong())
                .isEqualTo(4);
        assertThat(ok(client, "list_tasks", Map.of()).path("sessionIds")).hasSize(2);

        Map<String, Object> remember = Map.of("instruction", "remember I live in Lyon", "idempotencyKey", "rem-" + key);
        ok(client, "remember", remember);
        ok(client, "remember", remember);
        JsonNode facts = ok(client, "get_profile", Map.of()).path("profile").path("facts");
        assertThat(facts).hasSize(1);
        Map<String, Object> forget = Map.of("factId", facts.get(0).path("id").asLong(), "idempotencyKey", "fgt-" + key);
        ok(client, "forget_fact", forget);
        ok(client, "forget_fact", forget);
        assertThat(ok(client, "get_profile", Map.of()).path("profile").path("facts")).isEmpty();

        JsonNode bad = McpClients.error(client, "record_step",
                Map.of("sessionId", id, "patch", Map.of("goal", "x"), "idempotencyKey", "has space"));
        assertThat(bad.path("field").asText()).isEqualTo("idempotencyKey");
    }
}
