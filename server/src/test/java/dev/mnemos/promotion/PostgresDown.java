package dev.mnemos.promotion;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/** Postgres unreachable (nothing listens on port 1); Redis as usual. */
public class PostgresDown implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:1/unreachable",
                "quarkus.mnemos.migration.migrate-at-start", "false",
                "quarkus.datasource.jdbc.acquisition-timeout", "1s");
    }
}
