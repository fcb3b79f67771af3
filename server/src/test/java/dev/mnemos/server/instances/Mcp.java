package dev.mnemos.server.instances;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * An MCP session over Streamable HTTP with one server process, spoken in plain JSON-RPC: initialised on open, its
 * {@code Mcp-Session-Id} sent with every request, which {@link #post} may send to another process.
 */
final class Mcp implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;
    private final String token;
    private final String session;
    private int ids = 10;

    private Mcp(String base, String token, String session) {
        this.base = base;
        this.token = token;
        this.session = session;
    }

    static Mcp open(String base, String token) {
        HttpResponse<String> init = send(base, token, null, Map.of("jsonrpc", "2.0", "id", 0, "method", "initialize",
                "params", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(), "clientInfo",
                        Map.of("name", "instances-test", "version", "1"))));
        String session = init.headers().firstValue("Mcp-Session-Id")
                .orElseThrow(() -> new AssertionError("initialize answered " + init.statusCode() + " " + init.body()));
        Mcp mcp = new Mcp(base, token, session);
        mcp.post(base, Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
        return mcp;
    }

    static Map<String, Object> list(int id) {
        return Map.of("jsonrpc", "2.0", "id", id, "method", "tools/list");
    }

    /** The text of the session's memory block ({@code mnemos://sessions/{id}/memory-block}) as this process renders it. */
    String memoryBlock(String sessionId) {
        HttpResponse<String> read = post(base, Map.of("jsonrpc", "2.0", "id", ++ids, "method", "resources/read",
                "params", Map.of("uri", "mnemos://sessions/" + sessionId + "/memory-block")));
        JsonNode answer = parse(read.body());
        JsonNode text = answer.path("result").path("contents").path(0).path("text");
        if (read.statusCode() != 200 || text.isMissingNode()) {
            throw new AssertionError("resources/read answered " + read.statusCode() + " " + read.body());
        }
        return text.asText();
    }

    /** Sends {@code message} in this session to the process at {@code to}. */
    HttpResponse<String> post(String to, Map<String, Object> message) {
        return send(to, token, session, message);
    }

    @Override
    public void close() {
        try {
            HTTP.send(HttpRequest.newBuilder(URI.create(base + "/mcp")).header("Authorization", "Bearer " + token)
                    .header("Mcp-Session-Id", session).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static HttpResponse<String> send(String base, String token, String session, Map<String, Object> message) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/mcp")).timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(message)));
            if (session != null) {
                request.header("Mcp-Session-Id", session);
            }
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A JSON body, or the first {@code data:} line of an event stream. */
    private static JsonNode parse(String body) {
        String json = body.strip();
        if (!json.startsWith("{")) {
            json = json.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip()).findFirst()
                    .orElse("{}");
        }
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }
}
