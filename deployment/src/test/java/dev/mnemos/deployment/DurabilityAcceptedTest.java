package dev.mnemos.deployment;

import dev.mnemos.session.RedisDurability;
import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With quarkus.mnemos.redis.durability-check=accepted, a Redis without persistence (the machine's shared one)
 * is reported at INFO, not as a warning.
 */
class DurabilityAcceptedTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RecordingChatModel.class))
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.redis.durability-check", "accepted")
            .setLogRecordPredicate(r -> r.getLoggerName().equals(RedisDurability.class.getName()))
            .assertLogRecords(records -> assertThat(records)
                    .noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                    .extracting(DurabilityAcceptedTest::formatted)
                    .anyMatch(m -> m.startsWith("Redis durability (accepted by quarkus.mnemos.redis.durability-check): ")
                            && m.contains("appendonly is no")));

    @Test
    void starts() {
        // the log is asserted once the application stopped (assertLogRecords)
    }

    private static String formatted(LogRecord record) {
        Object[] parameters = record.getParameters();
        return parameters == null ? record.getMessage() : String.format(record.getMessage(), parameters);
    }
}
