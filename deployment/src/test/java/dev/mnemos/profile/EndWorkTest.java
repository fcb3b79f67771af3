package dev.mnemos.profile;

import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * What one session end costs in Postgres statements and embedding model calls, counted (not timed) on the
 * workload of {@code .ci/bench/HttpEndBench.java}: a user whose profile already holds facts ends a session
 * with five observations (two standing preferences that are promoted, one that repeats across sessions, a
 * task-only one that is rejected, an inferred one left pending). The counts are printed and held under bounds,
 * so a change that sends more statements or embeds more texts per end fails here.
 */
class EndWorkTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings(),
            jar -> jar.addClass(RecordedSql.class));

    /** Statements Hibernate sends for the measured end, at most (29 before the end's work was cut). */
    static final int MAX_STATEMENTS = 22;
    /**
     * Texts the embedding model is given for the measured end, at most: only the one text no earlier end said
     * (5 before: every candidate, then the promoted fact again).
     */
    static final int MAX_MODEL_CALLS = 1;

    @Inject
    FactEmbeddings embeddings;
    @Inject
    AgroalDataSource db;

    private final String user = "end-work-" + UUID.randomUUID();
    /** Makes this run's new texts new to the embedding cache of the application under test. */
    private final String run = user.substring(user.length() - 8);

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
        Map<String, Long> kinds = sql.stream().collect(Collectors.groupingBy(EndWorkTest::kind, Collectors.counting()));
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
}
