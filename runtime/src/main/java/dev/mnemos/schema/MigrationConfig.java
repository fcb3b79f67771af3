package dev.mnemos.schema;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Mnemos' own Postgres migrations. They run from {@code db/mnemos} with their own history table,
 * on the application's default datasource, in the schema its connections use; an application's
 * own Flyway migrations ({@code db/migration}, {@code flyway_schema_history}) never see them.
 */
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
@ConfigMapping(prefix = "quarkus.mnemos.migration")
public interface MigrationConfig {

    /** Migrate Mnemos' tables when the application starts; start-up fails when the migration does. */
    @WithDefault("true")
    boolean migrateAtStart();

    /** Name of Mnemos' Flyway history table. */
    @WithDefault("mnemos_schema_history")
    String table();
}
