package dev.mnemos.server.injection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.langchain4j.model.chat.ChatModel;
import dev.mnemos.injection.ActingAs;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.ProfileSource;
import dev.mnemos.injection.block.MemoryBlockRenderer;
import dev.mnemos.server.llm.ChatModelProducer;
import dev.mnemos.server.llm.ModelConfig;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.session.Constraint;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.testsupport.ScriptedProfileSource;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real OpenAI client path, offline: the AI service's request goes through LangChain4j's
 * {@link OpenAiChatModel} (built as {@code ChatModelProducer} builds it for
 * {@code mnemos.llm.provider=OPENAI}) to an OpenAI-compatible stub on a loopback port, and the
 * memory block must be in the HTTP body it receives.
 */
@QuarkusTest
class OpenAiStubInjectionTest {

    private static final String COMPLETION = """
            {"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"stub-model",
             "choices":[{"index":0,"message":{"role":"assistant","content":"stub says: book the ryokan"},"finish_reason":"stop"}],
             "usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}""";

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    SessionStore store;
    @Inject
    ProfileSource profileSource;

    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @BeforeEach
    void startStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] answer = COMPLETION.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        // the production factory, configured the way mnemos.llm.* properties configure it
        ChatModel openAi = ChatModelProducer.openAiCompatible(new StubLlmConfig(
                "http://127.0.0.1:" + server.getAddress().getPort() + "/v1"));
        model.reset();
        model.script(request -> openAi.chat(request).aiMessage().text());
    }

    private record StubLlmConfig(String url) implements ModelConfig {
        public Provider provider() {
            return Provider.OPENAI;
        }

        public Optional<String> baseUrl() {
            return Optional.of(url);
        }

        public String apiKey() {
            return "stub-key";
        }

        public String modelName() {
            return "stub-model";
        }

        public double temperature() {
            return 0;
        }

        public Duration timeout() {
            return Duration.ofSeconds(10);
        }
    }

    @AfterEach
    void stopStub() {
        server.stop(0);
    }

    @Test
    void memoryBlockReachesTheOpenAiRequestBody() throws IOException {
        String user = "u-" + SessionIds.newId();
        ((ScriptedProfileSource) profileSource).set(user,
                List.of(new ProfileLine("f1", "FORMAT", null, "likes short answers", 0.9)));
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("two days in Nara 奈良")
                .addConstraint(new Constraint(null, "no car rental", Scope.TASK, "user")).build()).by("test")).sessionId();

        String answer = ActingAs.user(user).call(() -> ai.chat(id, "what first?"));

        assertThat(answer).isEqualTo("stub says: book the ryokan");
        assertThat(bodies).hasSize(1);
        assertThat(authorizations).containsExactly("Bearer stub-key");
        JsonNode request = new ObjectMapper().readTree(bodies.get(0));
        assertThat(request.path("model").asText()).isEqualTo("stub-model");
        String system = request.path("messages").get(0).path("content").asText();
        assertThat(request.path("messages").get(0).path("role").asText()).isEqualTo("system");
        assertThat(system).contains(MemoryBlockRenderer.OPEN, "goal: \"two days in Nara 奈良\"", "\"no car rental\"",
                "\"likes short answers\"", MemoryBlockRenderer.CLOSE);
        assertThat(store.get(id).collected()).containsEntry("answer.chat", "stub says: book the ryokan");
    }
}
