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

import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A @SessionMemory method whose prompt lacks {inject:memory.block} builds, with a warning naming it; the
 * template is read as Quarkus LangChain4j reads it, from a resource too. A method with the placeholder
 * (explicit session argument included) is not named.
 */
class MissingPlaceholderTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Assistant.class, RecordingChatModel.class)
                    .addAsResource("prompts/no-block.txt"))
            .withConfigurationResource("mnemos-test.properties")
            .setLogRecordPredicate(r -> r.getLevel().intValue() >= Level.WARNING.intValue()
                    && r.getLoggerName().startsWith("dev.mnemos"))
            .assertLogRecords(records -> assertThat(records).extracting(LogRecord::getMessage)
                    .anyMatch(m -> m.startsWith(Assistant.class.getName() + "#inline: its prompt has no {inject:memory.block}"))
                    .anyMatch(m -> m.startsWith(Assistant.class.getName() + "#fromResource: its prompt has no"))
                    .anyMatch(m -> m.startsWith(Assistant.class.getName() + "#noSystemMessage: its prompt has no"))
                    .noneMatch(m -> m.contains("#withBlock")));

    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    @ApplicationScoped
    interface Assistant {

        @SessionMemory
        @SystemMessage("You help.")
        String inline(@MemoryId String sessionId, @UserMessage String question);

        @SessionMemory
        @SystemMessage(fromResource = "prompts/no-block.txt")
        String fromResource(@MemoryId String sessionId, @UserMessage String question);

        @SessionMemory
        String noSystemMessage(@MemoryId String sessionId, @UserMessage String question);

        @SessionMemory
        @SystemMessage("You help.\n{inject:memory.block(sessionId)}")
        String withBlock(@MemoryId String sessionId, @UserMessage String question);
    }

    @Test
    void buildsAndStarts() {
        // the warnings are asserted once the application stopped (assertLogRecords)
    }
}
