package dev.mnemos.deployment;

import dev.langchain4j.agentic.Agent;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import dev.mnemos.injection.SessionMemory;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A {@code @SessionMemory} {@code @Agent} method that streams its answer fails the application's build, naming the
 * method: a workflow passes the stream on, so its step would never be written. The agent of the same interface that
 * returns its answer is not named.
 */
class StreamingAgentTest {

    /** Two agents of a workflow; only the streaming one is a misuse. */
    interface Writer {
        @Agent(description = "Drafts the plan, streamed")
        @SessionMemory
        @UserMessage("Draft a plan for {{request}}. {inject:memory.block}")
        Multi<String> draft(@V("request") String request);

        @Agent(description = "Reviews the plan")
        @SessionMemory
        @UserMessage("Review the plan for {{request}}. {inject:memory.block}")
        String review(@V("request") String request);
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
            .withApplicationRoot(jar -> jar.addClasses(Writer.class, Model.class))
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.datasource.db-kind", "postgresql")
            .assertException(e -> assertThat(BuildFailures.messages(e))
                    .contains("StreamingAgentTest$Writer#draft: a @SessionMemory @Agent method returns"
                            + " io.smallrye.mutiny.Multi<java.lang.String>")
                    .doesNotContain("Writer#review"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }
}
