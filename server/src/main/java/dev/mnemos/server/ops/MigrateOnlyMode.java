package dev.mnemos.server.ops;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * {@code mnemos.ops.migrate-only=true}: start, let Mnemos' migrations run (they observe the start-up
 * event with a higher priority than this observer, and a failed migration fails the start), then exit 0.
 * The Kubernetes "migrate" init container runs the server image this way as the schema owner role,
 * so the serving pods can use a role that has no DDL rights (k8s/base/deployment.yaml).
 */
public class MigrateOnlyMode {

    private static final Logger LOG = Logger.getLogger(MigrateOnlyMode.class);

    void onStart(@Observes StartupEvent event,
            @ConfigProperty(name = "mnemos.ops.migrate-only", defaultValue = "false") boolean migrateOnly,
            @ConfigProperty(name = "quarkus.mnemos.migration.migrate-at-start", defaultValue = "true") boolean migrate) {
        if (!migrateOnly) {
            return;
        }
        if (!migrate) {
            LOG.warn("mnemos.ops.migrate-only=true but quarkus.mnemos.migration.migrate-at-start=false: nothing migrated");
        }
        LOG.info("mnemos.ops.migrate-only=true: migrations done, exiting");
        Quarkus.asyncExit(0);
    }
}
