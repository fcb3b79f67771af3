package org.acme.trips;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * An OpenAI-compatible chat endpoint on a free loopback port: it records every request body and
 * answers every chat completion with {@link #ANSWER}. The application reaches it through its
 * ordinary OpenAI configuration ({@code quarkus.langchain4j.openai.base-url}).
 */
public class OpenAiStub implements QuarkusTestResourceLifecycleManager {

    static final String ANSWER = "Stub planner: take the coastal train to Cascais.";

    private static final String COMPLETION = """
            {"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"stub-model",
             "choices":[{"index":0,"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}],
             "usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}""".formatted(ANSWER);

    private static final List<String> BODIES = new CopyOnWriteArrayList<>();
    private HttpServer server;

    /** Every chat request body received so far, oldest first. */
    static List<String> bodies() {
        return List.copyOf(BODIES);
    }

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/chat/completions", exchange -> {
            BODIES.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] answer = COMPLETION.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.setExecutor(Executors.newCachedThreadPool()); // concurrent calls are answered concurrently
        server.start();
        return Map.of("quarkus.langchain4j.openai.base-url", "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
