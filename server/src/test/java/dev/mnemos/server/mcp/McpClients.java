package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Real MCP clients (the official Java SDK over Streamable HTTP) against the running test server. */
final class McpClients {

    static final ObjectMapper JSON = new ObjectMapper();

    private McpClients() {
    }

    /**
     * A client whose every HTTP request carries {@code Authorization: Bearer <token>} (none when null), not yet initialised.
     */
    static McpSyncClient client(URI root, String token) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder("http://" + root.getHost() + ":" + root.getPort())
                .endpoint("/mcp")
                .httpRequestCustomizer((request, method, uri, body, context) -> {
                    if (token != null) {
                        request.setHeader("Authorization", "Bearer " + token);
                    }
                })
                .build();
        return McpClient.sync(transport).requestTimeout(Duration.ofMinutes(2))
                .initializationTimeout(Duration.ofSeconds(30)).build();
    }

    static McpSyncClient connected(URI root, String token) {
        McpSyncClient client = client(root, token);
        client.initialize();
        return client;
    }

    /** A successful call's JSON answer; fails the test on a tool error. */
    static JsonNode ok(McpSyncClient client, String tool, Map<String, Object> args) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, args));
        String text = text(result);
        assertThat(result.isError()).as("%s answered an error: %s", tool, text).isNotEqualTo(Boolean.TRUE);
        return parse(text);
    }

    /** A tool error's JSON body; fails the test when the call succeeded. */
    static JsonNode error(McpSyncClient client, String tool, Map<String, Object> args) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, args));
        String text = text(result);
        assertThat(result.isError()).as("%s should have failed, answered: %s", tool, text).isTrue();
        return parse(text);
    }

    static String text(McpSchema.CallToolResult result) {
        assertThat(result.content()).hasSize(1);
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
