package dev.mnemos.profile;

import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scale-out past one Postgres (docs/operations.md): the profile, candidate and archive tables can be distributed by
 * user because every statement Mnemos sends to them names {@code user_id}. The test drives every profile and
 * promotion operation over HTTP, records the SQL Hibernate sends, and fails on a statement without the key. The one
 * documented exception is reading an ended session by its id (the caller knows only the id).
 */
class UserKeyedSqlTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings(),
            jar -> jar.addClass(RecordedSql.class));

    private static final Pattern USER_TABLES = Pattern
            .compile("\\b(profile_fact|profile_event|profile_owner|profile_request|promotion_candidate|session_archive)\\b");
    /** Reads of one ended session by id: a fan-out on a distributed table, off the per-step path. */
    private static final Pattern ARCHIVE_BY_SESSION = Pattern
            .compile("^select .* from session_archive \\w+ where \\w+\\.session_id=\\?$");

    private final String user = "sql-" + UUID.randomUUID();

    private RequestSpecification as() {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    @Test
    void everyProfileCandidateAndArchiveStatementNamesTheUser() {
        RecordedSql.start();
        List<String> sql;
        try {
            everyOperation();
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

    private void everyOperation() {
        int fact = as().body(Map.of("category", "PREFERENCE", "slot", "language", "text", "Answer in English"))
                .post("/v1/profile/facts").then().statusCode(201).extract().path("changes[0].factId");
        as().body(Map.of("category", "PREFERENCE", "slot", "language", "text", "Answer in French"))
                .put("/v1/profile/facts/{id}", fact).then().statusCode(200);
        int diet = as().body(Map.of("category", "FACT", "text", "Keeps bees")).post("/v1/profile/facts").then()
                .statusCode(201).extract().path("changes[0].factId");
        as().delete("/v1/profile/facts/{id}", diet).then().statusCode(200);
        as().body(Map.of("instruction", "remember I like jazz")).post("/v1/profile/instruct").then().statusCode(200);
        // keyed writes record themselves, and a repeat reads the record and the events it names
        for (int i = 0; i < 2; i++) {
            as().header("Idempotency-Key", "sql-keyed").body(Map.of("text", "Keeps a garden"))
                    .post("/v1/profile/facts").then().statusCode(201);
        }
        as().header("Idempotency-Key", "sql-keyed-forget").delete("/v1/profile/facts/{id}", fact).then()
                .statusCode(200);
        as().body(Map.of("text", "I am a vegetarian.")).post("/v1/profile/import").then().statusCode(200);
        as().get("/v1/profile").then().statusCode(200);
        as().get("/v1/profile/history").then().statusCode(200);

        for (String text : List.of("Prefers aisle seats", "Prefers quiet hotels")) {
            String session = as().body(Map.of("goal", "plan a trip")).post("/v1/sessions").then().statusCode(201)
                    .extract().path("sessionId");
            as().body(Map.of("text", text, "kind", "PREFERENCE", "explicit", false))
                    .post("/v1/sessions/{id}/observations", session).then().statusCode(200);
            as().post("/v1/sessions/{id}/end", session).then().statusCode(200);
            as().get("/v1/sessions/{id}/versions/{v}", session, 1).then().statusCode(200);
            as().post("/v1/sessions/{id}/end", session).then().statusCode(200);
        }
        List<Integer> pending = as().get("/v1/profile/pending").then().statusCode(200).extract().path("id");
        assertThat(pending).hasSize(2);
        as().post("/v1/profile/pending/{id}/confirm", pending.get(0)).then().statusCode(200);
        as().post("/v1/profile/pending/{id}/reject", pending.get(1)).then().statusCode(200);
        undoAndTimeTravel();
    }

    /** A session end that supersedes a fact, undone (retract, restore, dropped candidate), and the profile as of then. */
    private void undoAndTimeTravel() {
        String before = Instant.now().toString();
        // a fact an earlier session promoted: a later session may supersede it (a fact the user typed it may not)
        String earlier = as().body(Map.of("goal", "a first chat")).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
        as().body(Map.of("text", "From now on answer in English", "kind", "PREFERENCE", "explicit", true, "slot",
                "output.language")).post("/v1/sessions/{id}/observations", earlier).then().statusCode(200);
        as().post("/v1/sessions/{id}/end", earlier).then().statusCode(200);
        String session = as().body(Map.of("goal", "a chat")).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
        as().body(Map.of("text", "From now on answer in Chinese", "kind", "PREFERENCE", "explicit", true, "slot",
                "output.language")).post("/v1/sessions/{id}/observations", session).then().statusCode(200);
        as().body(Map.of("text", "Likes night trains", "kind", "PREFERENCE", "explicit", false))
                .post("/v1/sessions/{id}/observations", session).then().statusCode(200);
        as().post("/v1/sessions/{id}/end", session).then().statusCode(200);
        as().post("/v1/sessions/{id}/promotion/undo", session).then().statusCode(200)
                .body("changes.action", Matchers.hasItems("RETRACT", "RESTORE", "REJECT"));
        as().post("/v1/sessions/{id}/promotion/undo", session).then().statusCode(200);
        String now = Instant.now().toString();
        as().get("/v1/profile?asOf={t}", now).then().statusCode(200);
        as().get("/v1/profile/diff?from={f}&to={t}", before, now).then().statusCode(200);
    }
}
