package dev.mnemos.profile;

import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQL Mnemos sends to Postgres, recorded ({@link RecordedSql}), with the server's settings:
 * <ul>
 * <li>what one session end costs in Postgres statements and embedding model calls, counted (not timed) on the workload
 * of {@code .ci/bench/HttpEndBench.java}: a user whose profile already holds facts ends a session with five
 * observations (two standing preferences that are promoted, one that repeats across sessions, a task-only one that is
 * rejected, an inferred one left pending). The counts are printed and held under bounds, so a change that sends more
 * statements or embeds more texts per end fails here;</li>
 * <li>scale-out past one Postgres (docs/operations.md): the profile, candidate and archive tables can be distributed by
 * user because every statement Mnemos sends to them names {@code user_id}. The test drives every profile and promotion
 * operation over HTTP ({@link EveryProfileOperation}), records the SQL Hibernate sends, and fails on a statement without
 * the key. The one documented exception is reading an ended session by its id (the caller knows only the id).</li>
 * </ul>
 * Each test records only while its own calls run and is a user of its own.
 */
class ProfileSqlTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings(),
            jar -> jar.addClasses(RecordedSql.class, EveryProfileOperation.class));

    /** Statements Hibernate sends for the measured end, at most (29 before the end's work was cut). */
    static final int MAX_STATEMENTS = 22;
    /**
     * Texts the embedding model is given for the measured end, at most: only the one text no earlier end said
     * (5 before: every candidate, then the promoted fact again).
     */
    static final int MAX_MODEL_CALLS = 1;

    private static final Pattern USER_TABLES = Pattern
            .compile("\\b(profile_fact|profile_event|profile_owner|profile_request|promotion_candidate|session_archive)\\b");
    /** Reads of one ended session by id: a fan-out on a distributed table, off the per-step path. */
    private static final Pattern ARCHIVE_BY_SESSION = Pattern
            .compile("^select .* from session_archive \\w+ where \\w+\\.session_id=\\?$");

    @Inject
    FactEmbeddings embeddings;
    @Inject
    AgroalDataSource db;

    /** A user of each test's own: QuarkusUnitTest runs every test method on one instance. */
    private String user;
    /** Makes this run's new texts new to the embedding cache of the application under test. */
    private String run;

    @BeforeEach
    void newUser() {
        user = "sql-" + UUID.randomUUID();
        run = user.substring(user.length() - 8);
    }

    private RequestSpecification as() {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    @Test
    void oneEndSendsFewStatementsAndEmbedsEachTextOnce() throws SQLException {
        for (int i = 0; i < 3; i++) {
            end(session(i));
        }
        String measured = session(3);
        long calls = embeddings.modelCalls();
        RecordedSql.start();
        List<String> sql;
        try {
            end(measured);
        } finally {
            sql = RecordedSql.stop();
        }
        long modelCalls = embeddings.modelCalls() - calls;
        Map<String, Long> kinds = sql.stream().collect(Collectors.groupingBy(ProfileSqlTest::kind, Collectors.counting()));
        System.out.printf("one end: %d statements %s, %d embedding model calls%n", sql.size(), kinds, modelCalls);
        Map<String, Long> bytes = rowBytes(measured);
        // the sizing table of docs/operations.md ("Capacity") takes these
        System.out.printf("one end: row bytes written %s (pg_column_size of the rows, before indexes)%n", bytes);
        assertThat(bytes.get("session_archive")).isPositive();
        // the end really reached the profile and the archive (a recorder that saw nothing would pass)
        assertThat(sql).anyMatch(s -> s.contains("session_archive")).anyMatch(s -> s.contains("profile_fact"));
        // the one new text was embedded, so embeddings were on
        assertThat(modelCalls).isPositive();
        assertThat(sql).hasSizeLessThanOrEqualTo(MAX_STATEMENTS);
        assertThat(modelCalls).isLessThanOrEqualTo(MAX_MODEL_CALLS);
    }

    /** The bytes of the rows the end of {@code sessionId} wrote, by table. */
    private Map<String, Long> rowBytes(String sessionId) throws SQLException {
        Map<String, Long> bytes = new LinkedHashMap<>();
        for (String[] table : new String[][] { { "session_archive", "session_id" }, { "profile_event", "session_id" },
                { "promotion_candidate", "session_id" }, { "profile_fact", "source_session_id" } }) {
            try (Connection c = db.getConnection();
                    PreparedStatement q = c.prepareStatement("select coalesce(sum("
                            + "pg_column_size(t.*)), 0) from " + table[0] + " t where user_id = ? and " + table[1] + " = ?")) {
                q.setString(1, user);
                q.setString(2, sessionId);
                try (ResultSet rows = q.executeQuery()) {
                    rows.next();
                    bytes.put(table[0], rows.getLong(1));
                }
            }
        }
        return bytes;
    }

    /** A statement's verb and first table, as {@code insert profile_event}. */
    private static String kind(String sql) {
        String s = sql.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").trim();
        String verb = s.substring(0, Math.max(0, s.indexOf(' ')));
        Matcher m = Pattern.compile("\\b(?:from|into|update) (\\w+)").matcher(s);
        return verb + (m.find() ? " " + m.group(1) : "");
    }

    private String session(int i) {
        String id = as().body(Map.of("goal", "plan a trip to Kyoto " + i)).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
        step(id, Map.of("context", "a week in spring, two travellers", "addConstraints", List.of(
                Map.of("text", "budget under $2000 for this trip", "scope", "TASK"),
                Map.of("text", "never book red-eye flights", "scope", "STABLE"))));
        step(id, Map.of("addObservations", List.of(
                observation("From now on, use 24-hour times in plan " + i + " " + run, true),
                observation(i % 2 == 0 ? "Always cite your sources" : "I prefer metric units", true),
                observation("My budget is $500 for this trip", true),
                observation("Likes window seats", false))));
        step(id, Map.of("addPlan", Map.of("content", "day by day: temples, gardens, markets\n".repeat(28)),
                "stepPointer", Map.of("index", 1, "name", "book")));
        return id;
    }

    private static Map<String, Object> observation(String text, boolean explicit) {
        return Map.of("text", text, "kind", "PREFERENCE", "explicit", explicit);
    }

    private void step(String id, Map<String, Object> patch) {
        as().body(Map.of("patch", patch)).post("/v1/sessions/{id}/steps", id).then().statusCode(200);
    }

    private void end(String id) {
        as().post("/v1/sessions/{id}/end", id).then().statusCode(200);
    }

    @Test
    void everyProfileCandidateAndArchiveStatementNamesTheUser() {
        RecordedSql.start();
        List<String> sql;
        try {
            EveryProfileOperation.as(user);
        } finally {
            sql = RecordedSql.stop();
        }

        List<String> touched = sql.stream().map(s -> s.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").trim())
                .filter(s -> USER_TABLES.matcher(s).find()).toList();
        List<String> withoutKey = new ArrayList<>();
        List<String> archiveReads = new ArrayList<>();
        for (String s : touched) {
            if (keyed(s)) {
                continue;
            }
            if (ARCHIVE_BY_SESSION.matcher(s).matches()) {
                archiveReads.add(s);
            } else {
                withoutKey.add(s);
            }
        }
        // the operations below really reached every table (a recorder that saw nothing would pass vacuously)
        for (String table : List.of("profile_fact", "profile_event", "profile_owner", "profile_request",
                "promotion_candidate", "session_archive")) {
            assertThat(touched).as(table).anyMatch(s -> s.contains(table));
        }
        assertThat(touched).anyMatch(s -> s.startsWith("update profile_fact"));
        assertThat(touched).anyMatch(s -> s.startsWith("delete from profile_fact"));
        assertThat(withoutKey).as("statements without user_id").isEmpty();
        assertThat(archiveReads).isNotEmpty();
    }

    /** An insert that sets user_id, or a statement whose WHERE clause filters on it. */
    private static boolean keyed(String sql) {
        if (sql.startsWith("insert ")) {
            int values = sql.indexOf(" values ");
            return sql.substring(0, values < 0 ? sql.length() : values).contains("user_id");
        }
        int where = sql.indexOf(" where ");
        return where >= 0 && Pattern.compile("\\buser_id\\s*(=|in\\b)").matcher(sql.substring(where)).find();
    }
}
