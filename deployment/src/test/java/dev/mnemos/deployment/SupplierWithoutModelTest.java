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
import static org.junit.jupiter.api.Assertions.fail;

/**
 * An AI service that names {@link MnemosModelSupplier} in an application without any model (no provider extension, no
 * ChatModel bean) fails the start, naming the service and what to add, instead of failing each call.
 */
class SupplierWithoutModelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Assistant.class))
            .withConfigurationResource("mnemos-test.properties")
            .assertException(e -> assertThat(causes(e))
                    .contains("@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class) on "
                            + Assistant.class.getName() + " finds no ChatModel bean in this application")
                    .contains("add a model provider extension (such as quarkus-langchain4j-openai")
                    .contains("or produce a ChatModel bean"));

    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    @ApplicationScoped
    interface Assistant {

        @SessionMemory(step = "advise")
        @SystemMessage("You help.\n{inject:memory.block}")
        String advise(@MemoryId String sessionId, @UserMessage String question);
    }

    @Test
    void theStartFails() {
        fail("the application must not start");
    }

    private static String causes(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
