package dev.mnemos.schema;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The start's shortcut past Flyway, against the real Postgres: taken only when Flyway would have nothing to do. */
class MigrationHistoryTest {

    private static final String TABLE = "mnemos_schema_history";

    private final PGSimpleDataSource dataSource = new PGSimpleDataSource();
    private final MigrationHistory history = new MigrationHistory(TABLE);
    private final Map<String, Integer> bundled = MigrationFiles.bundled(getClass().getClassLoader());
    private String schema;

    @BeforeEach
    void freshSchema() {
        dataSource.setUrl("jdbc:postgresql://127.0.0.1:5432/test");
        dataSource.setUser("postgres");
        schema = "mnemos_history_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    @AfterEach
    void dropSchema() throws SQLException {
        sql("drop schema if exists " + schema + " cascade");
    }

    @Test
    void aSchemaWithoutHistoryIsNotUpToDate() throws SQLException {
        assertThat(upToDate(bundled)).isFalse();
    }

    @Test
    void aSchemaFlywayMigratedIsUpToDateAndFlywayAgreesNothingIsPending() throws SQLException {
        assertThat(SchemaMigration.flyway(dataSource, TABLE, schema).migrate().migrationsExecuted)
                .isEqualTo(MigrationFiles.SCRIPTS.size());

        assertThat(upToDate(bundled)).isTrue();
        assertThat(SchemaMigration.flyway(dataSource, TABLE, schema).info().pending()).isEmpty();
    }

    @Test
    void aChangedChecksumAFailedRunOrANewScriptLeavesItToFlyway() throws SQLException {
        SchemaMigration.flyway(dataSource, TABLE, schema).migrate();

        sql("update " + schema + "." + TABLE + " set checksum = checksum + 1 where version = '3'");
        assertThat(upToDate(bundled)).isFalse();
        sql("update " + schema + "." + TABLE + " set checksum = checksum - 1 where version = '3'");
        assertThat(upToDate(bundled)).isTrue();

        sql("update " + schema + "." + TABLE + " set success = false where version = '7'");
        assertThat(upToDate(bundled)).isFalse();
        sql("update " + schema + "." + TABLE + " set success = true where version = '7'");

        Map<String, Integer> withANewScript = new LinkedHashMap<>(bundled);
        withANewScript.put("8", 42);
        assertThat(upToDate(withANewScript)).isFalse();

        sql("delete from " + schema + "." + TABLE + " where version = '7'");
        assertThat(upToDate(bundled)).isFalse();
    }

    @Test
    void aBaselineBelowMnemosScriptsDoesNotCount() throws SQLException {
        sql("create schema " + schema);
        sql("create table " + schema + ".app_owned (id int)"); // the application's own table: Flyway baselines at 0
        SchemaMigration.flyway(dataSource, TABLE, schema).migrate();

        assertThat(upToDate(bundled)).isTrue();
    }

    private boolean upToDate(Map<String, Integer> scripts) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return history.upToDate(connection, schema, scripts);
        }
    }

    private void sql(String statement) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement s = connection.createStatement()) {
            s.execute(statement);
        }
    }
}
