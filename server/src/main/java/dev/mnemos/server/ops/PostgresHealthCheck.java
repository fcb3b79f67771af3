package dev.mnemos.server.ops;

import io.agroal.api.AgroalDataSource;
import io.smallrye.health.api.HealthGroup;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Postgres' state for dashboards and alerts, at {@code /q/health/group/postgres} only: deliberately
 * NOT a readiness check. Steps go on without a profile while Postgres is down, so a Postgres outage
 * must not take every pod out of the Service (the built-in datasource check is disabled in
 * application.properties, {@code quarkus.datasource.health.enabled=false}).
 */
@HealthGroup(PostgresHealthCheck.GROUP)
@ApplicationScoped
public class PostgresHealthCheck implements HealthCheck {

    public static final String GROUP = "postgres";

    private final AgroalDataSource dataSource;

    public PostgresHealthCheck(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("Mnemos profile store (Postgres)");
        try (Connection connection = dataSource.getConnection()) {
            return response.status(connection.isValid(2)).build();
        } catch (SQLException e) {
            return response.down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
