package dev.mnemos.deployment;

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

/** A @SessionMemory method without a @MemoryId parameter fails the build, named. */
class MissingMemoryIdTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Assistant.class, RecordingChatModel.class))
            .withConfigurationResource("mnemos-test.properties")
            .assertException(t -> assertThat(BuildFailures.messages(t))
                    .contains(Assistant.class.getName() + "#advise: a @SessionMemory method needs a @MemoryId parameter"));

    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    @ApplicationScoped
    interface Assistant {

        @SessionMemory
        @SystemMessage("You help.\n{inject:memory.block}")
        String advise(@UserMessage String question);
    }

    @Test
    void buildFails() {
        fail("the build should have failed");
    }
}
