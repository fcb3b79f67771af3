package dev.mnemos.schema;

import dev.mnemos.deployment.RecordingChatModel;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.logging.LogRecord;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In an application (Flyway without quarkus-flyway, in Quarkus' class loader): the first start migrates a new schema
 * with Flyway, and a later migration finds it up to date without Flyway.
 */
class SchemaMigrationTest {

    static final String SCHEMA = System.getProperties().computeIfAbsent("mnemos.test.migration-schema",
            k -> "mnemos_migration_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)).toString();
    static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RecordingChatModel.class))
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.datasource.jdbc.url", URL + "?currentSchema=" + SCHEMA)
            .setAfterAllCustomizer(SchemaMigrationTest::dropSchema)
            .setLogRecordPredicate(r -> r.getLoggerName().equals(SchemaMigration.class.getName()))
            .assertLogRecords(records -> assertThat(records).extracting(LogRecord::getMessage).containsExactly(
                    "Mnemos schema in '%s' is at version %s (%d migrations applied, history in %s)",
                    "Mnemos schema in '%s' is up to date (history in %s)"));

    @Inject
    SchemaMigration migration;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theStartMigratedTheNewSchemaAndTheNextMigrationHasNothingToDo() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select count(*), bool_and(success) from " + SCHEMA
                        + ".mnemos_schema_history where type = 'SQL'")) {
            rows.next();
            assertThat(rows.getInt(1)).isEqualTo(scripts());
            assertThat(rows.getBoolean(2)).isTrue();
        }

        assertThat(migration.migrate()).isZero();
    }

    /** The migration scripts in runtime's sources (the test runs in another class loader than MigrationFiles). */
    private static long scripts() {
        try (Stream<Path> files = Files.list(Path.of("../runtime/src/main/resources/db/mnemos"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".sql")).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void dropSchema() {
        try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
                Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists " + SCHEMA + " cascade");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
