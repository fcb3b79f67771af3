package dev.mnemos.deployment;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkiverse.langchain4j.RegisterAiService;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer application's start against a correctly configured Redis logs no warning and no error,
 * and its entities match Mnemos' tables as dev mode's schema validation checks them.
 */
class QuietStartTest {

    static final DurableRedis REDIS = new DurableRedis();

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(
                    jar -> jar.addClasses(Assistant.class, RecordingChatModel.class, DurableRedis.class))
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.redis.hosts", REDIS.url())
            .setBeforeAllCustomizer(REDIS::start)
            .setAfterAllCustomizer(REDIS::stop)
            .setLogRecordPredicate(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
            .assertLogRecords(records -> assertThat(records).extracting(QuietStartTest::line).isEmpty());

    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    @ApplicationScoped
    interface Assistant {

        @SessionMemory(step = "advise")
        @SystemMessage("You help.\n{inject:memory.block}")
        String advise(@MemoryId String sessionId, @UserMessage String question);
    }

    @Inject
    SessionFactory sessionFactory;

    /** What dev mode's schema validation checks (it logs each mismatch as an ERROR); this throws on the first. */
    @Test
    void entitiesMatchTheMigratedTables() {
        sessionFactory.getSchemaManager().validateMappedObjects();
    }

    private static String line(LogRecord record) {
        return record.getLevel() + " [" + record.getLoggerName() + "] " + record.getMessage();
    }
}
