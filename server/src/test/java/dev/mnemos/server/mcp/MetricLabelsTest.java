package dev.mnemos.server.mcp;

import dev.mnemos.testsupport.Tokens;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Metric cardinality does not follow sessions, users or requests: reading the memory block of made-up session
 * ids over MCP, calling made-up tools and prompts, and asking the REST API for made-up sessions of made-up
 * users adds (almost) no series, and no label carries any of those ids.
 */
@QuarkusTest
class MetricLabelsTest {

    @TestHTTPResource("/")
    URI root;

    @Inject
    MeterRegistry registry;

    @Test
    void madeUpIdsNeverBecomeLabels() {
        String user = "labels-" + UUID.randomUUID();
        String token = Tokens.user(user);
        String service = Tokens.service("labels-svc-" + UUID.randomUUID());
        McpSyncClient client = McpClients.connected(root, token);
        try {
            // one of each first, so the series a templated label needs exist before counting
            probe(client, token, service, "warm-" + UUID.randomUUID());
            int before = registry.getMeters().size();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String id = "id" + UUID.randomUUID().toString().replace("-", "");
                ids.add(id);
                readBlock(client, id);
            }
            for (int i = 0; i < 30; i++) {
                String id = "id" + UUID.randomUUID().toString().replace("-", "");
                ids.add(id);
                probe(client, token, service, id);
            }
            int added = registry.getMeters().size() - before;
            List<String> leaks = new ArrayList<>();
            for (Meter meter : registry.getMeters()) {
                for (Tag tag : meter.getId().getTags()) {
                    for (String id : ids) {
                        if (tag.getValue().contains(id) || tag.getValue().contains(user)) {
                            leaks.add(meter.getId().getName() + "{" + tag.getKey() + "=" + tag.getValue() + "}");
                        }
                    }
                }
            }
            assertThat(leaks).as("labels carrying a session or user id").isEmpty();
            assertThat(added).as("meter series added by %s requests with made-up ids", ids.size() + 30 * 5)
                    .isLessThanOrEqualTo(5);
        } finally {
            client.closeGracefully();
        }
    }

    private void probe(McpSyncClient client, String token, String service, String id) {
        readBlock(client, id);
        try {
            client.callTool(new McpSchema.CallToolRequest("tool_" + id, Map.of()));
        } catch (RuntimeException expected) {
            // an unknown tool is an error; what matters is its label
        }
        try {
            client.getPrompt(new McpSchema.GetPromptRequest("prompt_" + id, Map.of()));
        } catch (RuntimeException expected) {
            // idem
        }
        given().auth().oauth2(token).get("/v1/sessions/{id}", id).then().statusCode(404);
        given().auth().oauth2(service).get("/v1/users/{u}/sessions/{id}", "u" + id, id).then().statusCode(404);
        given().get("/nowhere/{id}", id).then().statusCode(404);
    }

    private static void readBlock(McpSyncClient client, String id) {
        try {
            client.readResource(new McpSchema.ReadResourceRequest("mnemos://sessions/" + id + "/memory-block", null));
        } catch (RuntimeException expected) {
            // no such session: what matters is the label the read leaves behind
        }
    }
}
