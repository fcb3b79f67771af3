package dev.mnemos.deployment;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A prompt that names a Mnemos placeholder that does not exist ({@code {inject:memory.blok}}, a typo) fails the build,
 * naming the method and the placeholder to use, instead of building with a warning and failing every call.
 */
class UnknownPlaceholderTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Assistant.class, RecordingChatModel.class))
            .withConfigurationResource("mnemos-test.properties")
            .assertException(t -> assertThat(BuildFailures.messages(t))
                    .contains(Assistant.class.getName() + "#advise: its prompt has {inject:memory.blok}, which is not a"
                            + " Mnemos placeholder")
                    .contains("the memory block is {inject:memory.block}")
                    .contains(Assistant.class.getName() + "#plan: its prompt has {cdi:memory.blocks(sessionId)}")
                    .doesNotContain("#fine"));

    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    @ApplicationScoped
    interface Assistant {

        @SessionMemory
        @SystemMessage("You help.\n{inject:memory.blok}")
        String advise(@MemoryId String sessionId, @UserMessage String question);

        @SessionMemory
        @SystemMessage("You plan.\n{cdi:memory.blocks(sessionId)}")
        String plan(@MemoryId String sessionId, @UserMessage String question);

        @SessionMemory
        @SystemMessage("You help.\n{inject:memory.block(sessionId)}")
        String fine(@MemoryId String sessionId, @UserMessage String question);
    }

    @Test
    void buildFails() {
        fail("the build should have failed");
    }
}
