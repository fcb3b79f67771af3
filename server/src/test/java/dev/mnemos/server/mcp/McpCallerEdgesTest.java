package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemos.testsupport.Tokens;
import io.modelcontextprotocol.client.McpSyncClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.smallrye.jwt.build.Jwt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static dev.mnemos.server.mcp.McpClients.connected;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who is calling, over MCP (issue 51, item 9): a refused token answers 401 without naming the server's exception
 * classes, and a token whose subject is no user id is {@code invalid_argument} on {@code sub}, as docs/mcp.md says
 * and as the REST API answers 400 naming it.
 */
@QuarkusTest
class McpCallerEdgesTest {

    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @TestHTTPResource("/")
    URI root;

    final List<McpSyncClient> open = new ArrayList<>();

    @AfterEach
    void close() {
        open.forEach(McpSyncClient::closeGracefully);
    }

    @Test
    void a401NamesNoExceptionClass() {
        // a token that fails verification: the JSON-RPC error says what to send
        for (String token : List.of("not-a-jwt", Tokens.user("alice-" + UUID.randomUUID()) + "x")) {
            Response answer = given().auth().oauth2(token).contentType("application/json")
                    .accept("application/json, text/event-stream").body(INITIALIZE).post("/mcp");
            assertThat(answer.statusCode()).isEqualTo(401);
            assertThat(answer.header("WWW-Authenticate")).isEqualTo("Bearer");
            assertThat(answer.contentType()).startsWith("application/json");
            assertThat(answer.jsonPath().getInt("error.code")).isEqualTo(-32001);
            assertThat(answer.jsonPath().getString("error.message")).startsWith("Unauthorized: send a valid bearer token");
            assertThat(answer.asString()).as("the 401 body").doesNotContain("Exception").doesNotContain("io.quarkus");
        }
        // no token at all: the challenge alone
        Response none = given().contentType("application/json").accept("application/json, text/event-stream")
                .body(INITIALIZE).post("/mcp");
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer");
        assertThat(none.asString()).doesNotContain("Exception");
        Response sse = given().auth().oauth2(Tokens.user("alice-" + UUID.randomUUID())).get("/mcp/sse");
        assertThat(sse.statusCode()).isEqualTo(403);
        assertThat(sse.asString()).doesNotContain("Exception");
    }

    @Test
    void aSubjectThatIsNoUserIdIsInvalidArgumentOnSub() {
        String suffix = UUID.randomUUID().toString();
        for (String sub : List.of("x".repeat(10 * 1024) + suffix, "x".repeat(129) + suffix, "a b " + suffix,
                "-a" + suffix)) {
            // a token with the subject once (no upn), so a 10 KB subject fits the server's header limit
            McpSyncClient client = connected(root, Jwt.issuer(Tokens.ISSUER).subject(sub).groups(Set.of("user"))
                    .expiresIn(Duration.ofHours(1)).sign());
            open.add(client);
            for (var call : List.of(Map.entry("get_profile", Map.<String, Object> of()),
                    Map.entry("start_task", Map.<String, Object> of("goal", "g")),
                    Map.entry("remember", Map.<String, Object> of("instruction", "remember I like tea")))) {
                JsonNode error = McpClients.error(client, call.getKey(), call.getValue());
                assertThat(error.path("error").asText()).as("%s with a %d-character sub: %s", call.getKey(), sub.length(),
                        error).isEqualTo("invalid_argument");
                assertThat(error.path("field").asText()).isEqualTo("sub");
                assertThat(error.path("message").asText()).contains("sub").doesNotContain(sub);
            }
        }
    }
}
