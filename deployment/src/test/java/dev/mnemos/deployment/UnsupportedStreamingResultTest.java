package dev.mnemos.deployment;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A {@code @SessionMemory} method returning a {@code TokenStream} fails the application's build, naming it. (Quarkus
 * LangChain4j itself refuses a {@code Uni} or a {@code Multi} of anything but {@code String} at build time.)
 */
class UnsupportedStreamingResultTest {

    /** Not an AI service: the check covers every {@code @SessionMemory} method, whoever implements it. */
    interface Planner {
        @SessionMemory
        TokenStream tokens(@MemoryId String sessionId, @UserMessage String request);

        @SessionMemory
        Multi<String> stream(@MemoryId String sessionId, @UserMessage String request);
    }

    /** The application's model: Mnemos' own AI services need one. */
    @ApplicationScoped
    static class Model implements ChatModel {
        @Override
        public ChatResponse doChat(ChatRequest request) {
            return ChatResponse.builder().aiMessage(AiMessage.from("ok")).build();
        }
    }

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Planner.class, Model.class))
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.datasource.db-kind", "postgresql")
            .assertException(e -> {
                String all = messages(e);
                assertThat(all).contains("Planner#tokens returns dev.langchain4j.service.TokenStream",
                        "returns a value (String, a record, …) or streams a Multi<String>")
                        .doesNotContain("Planner#stream returns");
            });

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
            for (Throwable s : t.getSuppressed()) {
                all.append(messages(s));
            }
        }
        return all.toString();
    }
}
