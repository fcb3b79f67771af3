package dev.mnemos.server.mcp;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/**
 * An MCP session belongs to the subject whose token opened it: another subject's token with its
 * {@code Mcp-Session-Id} is answered 404, like an unknown session, for requests and for {@code DELETE}; MCP
 * session ids appear in no log line above DEBUG.
 */
@QuarkusTest
class McpSessionOwnerTest {

    final String alice = Tokens.user("alice-" + UUID.randomUUID());
    final String bob = Tokens.user("bob-" + UUID.randomUUID());
    final List<String> logged = new CopyOnWriteArrayList<>();
    final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() > Level.FINE.intValue()) {
                Object[] params = record.getParameters();
                logged.add(record.getMessage() + " " + (params == null ? "" : Arrays.asList(params)));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        Logger.getLogger("").addHandler(capture);
    }

    @AfterEach
    void stop() {
        Logger.getLogger("").removeHandler(capture);
    }

    @Test
    void anotherSubjectCannotUseOrEndAnMcpSession() {
        String session = initialize(alice);
        assertThat(session).isNotBlank();
        post(alice, session, Map.of("jsonrpc", "2.0", "method", "notifications/initialized")).then().statusCode(202);
        post(alice, session, list(1)).then().statusCode(200);

        // bob with alice's session id: as if it did not exist
        post(bob, session, list(2)).then().statusCode(404).contentType("application/problem+json")
                .body("detail", containsString("send initialize again"));
        given().auth().oauth2(bob).header("Mcp-Session-Id", session).delete("/mcp").then().statusCode(404);

        // alice's session lives on, and she can end it
        post(alice, session, list(3)).then().statusCode(200);
        given().auth().oauth2(alice).header("Mcp-Session-Id", session).delete("/mcp").then().statusCode(200);
        post(alice, session, list(4)).then().statusCode(404);

        assertThat(logged).as("log lines above DEBUG naming the MCP session id")
                .noneMatch(line -> line.contains(session));
    }

    private static Map<String, Object> list(int id) {
        return Map.of("jsonrpc", "2.0", "id", id, "method", "tools/list");
    }

    private static String initialize(String token) {
        return post(token, null, Map.of("jsonrpc", "2.0", "id", 0, "method", "initialize", "params",
                Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
                        "clientInfo", Map.of("name", "owner-test", "version", "1"))))
                .then().statusCode(200).extract().header("Mcp-Session-Id");
    }

    private static Response post(String token, String session, Map<String, Object> body) {
        var request = given().auth().oauth2(token).contentType("application/json")
                .accept("application/json, text/event-stream").body(body);
        if (session != null) {
            request = request.header("Mcp-Session-Id", session);
        }
        return request.post("/mcp");
    }
}
