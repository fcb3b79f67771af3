package dev.mnemos.schema;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Optional;

import javax.sql.DataSource;

/**
 * Migrates Mnemos' tables at start-up with Flyway, from {@link MigrationFiles#LOCATION} and with
 * its own history table, in the schema the datasource's connections use (created when missing). That
 * schema may hold the application's own tables and Flyway history already.
 * <p>
 * Most starts find the schema up to date. One query then shows it: the history holds every bundled script with the
 * checksum Flyway gives it, and no failed run. Flyway is configured and run only otherwise (a new schema, a pending or
 * changed script, a failed run), so an up-to-date start does not load Flyway at all.
 */
@ApplicationScoped
public class SchemaMigration {

    private static final Logger LOG = Logger.getLogger(SchemaMigration.class);

    private final AgroalDataSource dataSource;
    private final MigrationConfig config;

    public SchemaMigration(AgroalDataSource dataSource, MigrationConfig config) {
        this.dataSource = dataSource;
        this.config = config;
    }

    void onStart(@Observes @Priority(10) StartupEvent event) {
        if (config.migrateAtStart()) {
            migrate();
        }
    }

    /** Applies the pending migrations; returns how many ran. */
    public int migrate() {
        MigrationHistory history = new MigrationHistory(config.table());
        String schema;
        try (Connection connection = dataSource.getConnection()) {
            schema = targetSchema(connection);
            if (history.upToDate(connection, schema, MigrationFiles.bundled(SchemaMigration.class.getClassLoader()))) {
                LOG.infof("Mnemos schema in '%s' is up to date (history in %s)", schema, config.table());
                return 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Mnemos could not read the datasource's schema: " + e.getMessage(), e);
        }
        MigrateResult result = flyway(dataSource, config.table(), schema).migrate();
        LOG.infof("Mnemos schema in '%s' is at version %s (%d migrations applied, history in %s)", schema,
                result.targetSchemaVersion == null ? result.initialSchemaVersion : result.targetSchemaVersion,
                result.migrationsExecuted, config.table());
        return result.migrationsExecuted;
    }

    /** Flyway, set up for Mnemos' scripts and history table in {@code schema}. */
    static Flyway flyway(DataSource dataSource, String table, String schema) {
        ClassLoader classLoader = SchemaMigration.class.getClassLoader();
        return Flyway.configure(classLoader)
                .dataSource(dataSource)
                .table(table)
                .schemas(schema)
                // the application's own tables may already live in this schema (its Flyway runs first): Mnemos'
                // history then starts with a baseline at version 0, below every Mnemos migration, so all of them run
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .baselineDescription("before Mnemos")
                .resourceProvider(new MigrationFiles(classLoader))
                .load();
    }

    /** The connection's current schema, or the first schema on its search path when that one does not exist yet. */
    private static String targetSchema(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            Optional<String> current = single(statement, "select current_schema()");
            if (current.isPresent()) {
                return current.get();
            }
            return single(statement, "show search_path").flatMap(SchemaMigration::firstOnPath)
                    .orElseThrow(() -> new IllegalStateException(
                            "the datasource's connections have no schema to migrate Mnemos into"));
        }
    }

    static Optional<String> firstOnPath(String searchPath) {
        return Arrays.stream(searchPath.split(","))
                .map(String::strip).map(s -> s.replace("\"", ""))
                .filter(s -> !s.isEmpty() && !s.equals("$user")).findFirst();
    }

    private static Optional<String> single(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? Optional.ofNullable(rows.getString(1)) : Optional.empty();
        }
    }
}
