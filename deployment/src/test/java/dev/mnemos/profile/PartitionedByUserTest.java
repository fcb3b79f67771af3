package dev.mnemos.profile;

import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user-keyed tables as declarative hash partitions by {@code user_id} (issue 49 item 6): the application migrates a
 * schema of its own, the test runs the documented DDL ({@code docs/sql/partition-by-user.sql}, the file operators run)
 * on it, then every profile and promotion operation ({@link EveryProfileOperation}), an export and an erasure, for
 * several users whose rows land in different partitions. Citus is not run here: this is plain Postgres partitioning.
 */
class PartitionedByUserTest {

    static final String SCHEMA = "mnemos_partitioned";
    static final String ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/test";
    static final Path DDL = Path.of("../docs/sql/partition-by-user.sql");
    static final List<String> TABLES = List.of("profile_owner", "profile_fact", "profile_event", "profile_request",
            "profile_forgotten", "promotion_candidate", "session_archive");

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false")
            // the SQL is the same with or without embeddings; the in-process model would only lengthen the start
            .overrideConfigKey("quarkus.datasource.jdbc.url", ADMIN_URL + "?currentSchema=" + SCHEMA)
            // a schema of the test's own, migrated afresh by the application, then partitioned by the test
            .setBeforeAllCustomizer(() -> admin("drop schema if exists " + SCHEMA + " cascade")),
            jar -> jar.addClasses(EveryProfileOperation.class));

    @Inject
    AgroalDataSource db;

    @Test
    void everyProfileAndPromotionOperationRunsOnTablesPartitionedByUser() throws Exception {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("set search_path = " + SCHEMA);
            s.execute(Files.readString(DDL));
        }
        // no connection keeps a statement prepared on the tables replaced. GRACEFUL, not ALL: Agroal flushes on its
        // housekeeping thread, and ALL closed the connection the next query had just taken (a CI run: "Socket closed");
        // GRACEFUL closes idle connections and those in use when they are returned.
        db.flush(AgroalDataSource.FlushMode.GRACEFUL);
        for (String table : TABLES) {
            assertThat(query("select c.relkind::text from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                    + " where n.nspname = '" + SCHEMA + "' and c.relname = '" + table + "'")).as(table)
                    .containsExactly("p");
        }

        List<String> users = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String user = "partitioned-" + i + "-" + UUID.randomUUID();
            users.add(user);
            EveryProfileOperation.as(user);
        }
        List<String> factPartitions = query("select distinct tableoid::regclass::text from " + SCHEMA + ".profile_fact");
        List<String> archivePartitions = query(
                "select distinct tableoid::regclass::text from " + SCHEMA + ".session_archive");

        String erased = users.get(0);
        given().auth().oauth2(Tokens.user(erased)).get("/v1/me/export").then().statusCode(200);
        given().auth().oauth2(Tokens.user(erased)).contentType(ContentType.JSON).delete("/v1/me").then()
                .statusCode(200);
        for (String table : TABLES) {
            assertThat(query("select count(*)::text from " + SCHEMA + "." + table + " where user_id = '" + erased + "'"))
                    .as(table + " rows of the erased user").containsExactly("0");
        }
        given().auth().oauth2(Tokens.user(users.get(1))).get("/v1/profile").then().statusCode(200);
        List<String> facts = query("select count(*)::text from " + SCHEMA + ".profile_fact where user_id = '"
                + users.get(1) + "' and status = 'ACTIVE'");
        System.out.printf("PartitionedByUserTest: %d tables in 16 hash partitions each; 4 users' operations wrote facts"
                + " into %s and archives into %s; the second user has %s active facts%n", TABLES.size(), factPartitions,
                archivePartitions, facts.get(0));
        assertThat(factPartitions).as("partitions holding facts").hasSizeGreaterThan(1)
                .allMatch(p -> p.startsWith(SCHEMA + ".profile_fact_p") || p.startsWith("profile_fact_p"));
        assertThat(Integer.parseInt(facts.get(0))).isPositive();
    }

    private List<String> query(String sql) throws Exception {
        List<String> values = new ArrayList<>();
        try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }

    private static void admin(String sql) {
        try (Connection c = DriverManager.getConnection(ADMIN_URL, "postgres", "");
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (Exception e) {
            throw new IllegalStateException(sql + " failed", e);
        }
    }
}
