package org.acme.trips;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An OpenAI-compatible chat endpoint on a free loopback port: it records every request body and
 * answers every chat completion with {@link #ANSWER}, and every streamed one ({@code "stream": true})
 * with {@link #TOKENS} as server-sent chunks, then {@code data: [DONE]}. A streamed request whose user
 * message contains {@link #FAIL} gets two chunks and then its connection dropped; one that contains
 * {@link #SLOW} gets a chunk every 100 ms for {@link #SLOW_CHUNKS} chunks. How each stream ended is kept
 * by its user message ({@link #outcome}). A request that offers tools and carries no tool result yet is answered with
 * one {@code tool_calls} entry for {@link #TOOL} per {@code [city:NAME]} in its user message (Lisbon when none); the
 * follow-up that carries the results is answered with {@link #TOOL_ANSWER}. The application reaches the stub through
 * its ordinary OpenAI configuration ({@code quarkus.langchain4j.openai.base-url}).
 */
public class OpenAiStub implements QuarkusTestResourceLifecycleManager {

    static final String ANSWER = "Stub planner: take the coastal train to Cascais.";
    static final List<String> TOKENS = List.of("Streamed ", "planner: ", "walk the ", "Alfama ", "at dawn ☀, ",
            "then \"Belém\".");
    static final String STREAMED_ANSWER = String.join("", TOKENS);
    static final String FAIL = "[fail-midway]";
    static final String SLOW = "[slow]";
    /** A stream whose third chunk is not JSON, then {@code [DONE]}: no finish reason ever comes. */
    static final String MALFORMED = "[malformed]";
    /** A stream that ends with {@code [DONE]} but never sends a finish reason. */
    static final String UNFINISHED = "[unfinished]";
    static final int SLOW_CHUNKS = 30;
    static final String TOOL = "forecast";
    static final String TOOL_ANSWER = "Stub planner: the forecasts are in; pack for sun.";
    private static final Pattern CITY = Pattern.compile("\\[city:([^\\]]+)]");

    /** How a stream ended. */
    enum Outcome {
        COMPLETED,
        BROKEN,
        /** The client went away before the stream's end. */
        ABORTED
    }

    private static final String COMPLETION = """
            {"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"stub-model",
             "choices":[{"index":0,"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}],
             "usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}""".formatted(ANSWER);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> BODIES = new CopyOnWriteArrayList<>();
    private static final Map<String, Outcome> OUTCOMES = new ConcurrentHashMap<>();
    private HttpServer server;
    private ExecutorService threads;

    /** Every chat request body received so far, oldest first. */
    static List<String> bodies() {
        return List.copyOf(BODIES);
    }

    /** How the stream answering the request whose last user message is {@code message} ended; null while it runs. */
    static Outcome outcome(String message) {
        return OUTCOMES.get(message);
    }

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // one thread a request: a slow stream must not hold the others up
        threads = Executors.newCachedThreadPool();
        server.setExecutor(threads);
        server.createContext("/v1/chat/completions", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            BODIES.add(body);
            JsonNode request = JSON.readTree(body);
            if (request.path("stream").asBoolean()) {
                stream(exchange, lastUserMessage(request));
            } else if (request.path("tools").size() > 0) {
                respond(exchange, hasToolResult(request) ? completion(TOOL_ANSWER) : toolCalls(lastUserMessage(request)));
            } else {
                complete(exchange);
            }
        });
        server.start();
        return Map.of("quarkus.langchain4j.openai.base-url", "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
            threads.shutdownNow();
        }
    }

    private static void complete(HttpExchange exchange) throws IOException {
        byte[] answer = COMPLETION.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    private static void respond(HttpExchange exchange, String json) throws IOException {
        byte[] answer = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    private static boolean hasToolResult(JsonNode request) {
        for (JsonNode message : request.path("messages")) {
            if ("tool".equals(message.path("role").asText())) {
                return true;
            }
        }
        return false;
    }

    /** An assistant message asking for a forecast of each {@code [city:NAME]} of {@code message}. */
    private static String toolCalls(String message) {
        List<String> cities = new ArrayList<>();
        Matcher city = CITY.matcher(message);
        while (city.find()) {
            cities.add(city.group(1));
        }
        if (cities.isEmpty()) {
            cities.add("Lisbon");
        }
        ObjectNode reply = response();
        ObjectNode choice = reply.putArray("choices").addObject().put("index", 0).put("finish_reason", "tool_calls");
        ArrayNode calls = choice.putObject("message").put("role", "assistant").putNull("content").putArray("tool_calls");
        for (int i = 0; i < cities.size(); i++) {
            calls.addObject().put("id", "call_" + i).put("type", "function").putObject("function").put("name", TOOL)
                    .put("arguments", JSON.createObjectNode().put("city", cities.get(i)).toString());
        }
        return reply.toString();
    }

    private static String completion(String content) {
        ObjectNode reply = response();
        reply.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop").putObject("message")
                .put("role", "assistant").put("content", content);
        return reply.toString();
    }

    private static ObjectNode response() {
        ObjectNode reply = JSON.createObjectNode().put("id", "chatcmpl-3").put("object", "chat.completion")
                .put("created", 1700000000).put("model", "stub-model");
        reply.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
        return reply;
    }

    private static void stream(HttpExchange exchange, String message) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        try {
            send(out, chunk("assistant", "", null));
            if (message.contains(FAIL)) {
                send(out, chunk(null, TOKENS.get(0), null));
                send(out, chunk(null, TOKENS.get(1), null));
                OUTCOMES.put(message, Outcome.BROKEN);
                // thrown out of the handler, this makes the server drop the connection without ending the chunked body
                throw new IOException("the stub drops the connection mid-stream");
            }
            if (message.contains(MALFORMED) || message.contains(UNFINISHED)) {
                send(out, chunk(null, TOKENS.get(0), null));
                send(out, chunk(null, TOKENS.get(1), null));
                if (message.contains(MALFORMED)) {
                    write(out, "data: {\"id\":\"chatcmpl-2\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\n\n");
                }
                write(out, "data: [DONE]\n\n");
                OUTCOMES.put(message, Outcome.COMPLETED);
                exchange.close();
                return;
            }
            if (message.contains(SLOW)) {
                for (int i = 0; i < SLOW_CHUNKS; i++) {
                    send(out, chunk(null, "tick " + i + " ", null));
                    Thread.sleep(100);
                }
            } else {
                for (String token : TOKENS) {
                    send(out, chunk(null, token, null));
                }
            }
            send(out, chunk(null, null, "stop"));
            write(out, "data: [DONE]\n\n");
            OUTCOMES.put(message, Outcome.COMPLETED);
        } catch (IOException e) {
            if (OUTCOMES.putIfAbsent(message, Outcome.ABORTED) == Outcome.BROKEN) {
                throw e;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        exchange.close();
    }

    private static String chunk(String role, String content, String finishReason) {
        ObjectNode chunk = JSON.createObjectNode().put("id", "chatcmpl-2").put("object", "chat.completion.chunk")
                .put("created", 1700000000).put("model", "stub-model");
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        if (role != null) {
            delta.put("role", role);
        }
        if (content != null) {
            delta.put("content", content);
        }
        choice.put("finish_reason", finishReason);
        return chunk.toString();
    }

    private static void send(OutputStream out, String json) throws IOException {
        write(out, "data: " + json + "\n\n");
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String lastUserMessage(JsonNode request) {
        String last = "";
        for (JsonNode message : request.path("messages")) {
            if ("user".equals(message.path("role").asText())) {
                last = message.path("content").asText();
            }
        }
        return last;
    }
}
