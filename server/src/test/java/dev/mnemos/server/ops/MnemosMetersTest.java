package dev.mnemos.server.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/** The operator's counters move at /q/metrics (Prometheus) when steps, profile writes and ends happen. */
@QuarkusTest
class MnemosMetersTest {

    private final String user = "meters-" + UUID.randomUUID();

    private RequestSpecification as() {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    @Test
    void stepWritesProfileWritesAndEndsAreCounted() {
        double written = metric("mnemos_step_writes_total", "path=\"rest\"", "outcome=\"written\"");
        double stale = metric("mnemos_step_writes_total", "path=\"rest\"", "outcome=\"stale\"");
        double profileAdds = metric("mnemos_profile_writes_total", "operation=\"add\"", "outcome=\"ok\"");
        double ends = metric("mnemos_session_ends_total", "outcome=\"ended\"");

        String id = as().body(Map.of("goal", "count my steps")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
        as().body(Map.of("expectedVersion", 1, "patch", Map.of("putCollected", Map.of("k", "v"))))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(200);
        as().body(Map.of("expectedVersion", 1, "patch", Map.of("goal", "lost")))
                .post("/v1/sessions/{id}/steps", id).then().statusCode(409);
        as().body(Map.of("category", "PREFERENCE", "slot", "diet", "text", "vegetarian"))
                .post("/v1/profile/facts").then().statusCode(201);
        as().post("/v1/sessions/{id}/end", id).then().statusCode(200);

        assertThat(metric("mnemos_step_writes_total", "path=\"rest\"", "outcome=\"written\"")).isEqualTo(written + 1);
        assertThat(metric("mnemos_step_writes_total", "path=\"rest\"", "outcome=\"stale\"")).isEqualTo(stale + 1);
        assertThat(metric("mnemos_profile_writes_total", "operation=\"add\"", "outcome=\"ok\"")).isEqualTo(profileAdds + 1);
        assertThat(metric("mnemos_session_ends_total", "outcome=\"ended\"")).isEqualTo(ends + 1);
        // Registered up front, so alerts see zeros rather than absent series.
        for (String series : List.of("mnemos_store_unavailable_total", "mnemos_promotion_decisions_total",
                "mnemos_step_write_retries_total", "mnemos_profile_loads_total")) {
            assertThat(metrics()).as(series).contains(series);
        }
    }

    @Test
    void aStepThroughAnAiServiceCountsTheModelCallTheBlockAndTheArchiveWrite() {
        double calls = metric("mnemos_model_calls_seconds_count", "ai=\"step\"", "outcome=\"ok\"");
        double blocks = metric("mnemos_block_tokens_count");
        double archived = metric("mnemos_archive_writes_total", "outcome=\"ok\"");

        String id = as().body(Map.of("goal", "meter my step")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
        given().auth().oauth2(Tokens.user(user)).contentType(ContentType.TEXT).body("hello")
                .post("/test/trip-chat/{id}", id).then().statusCode(200);
        as().post("/v1/sessions/{id}/end", id).then().statusCode(200);

        assertThat(metric("mnemos_model_calls_seconds_count", "ai=\"step\"", "outcome=\"ok\"")).isEqualTo(calls + 1);
        assertThat(metric("mnemos_block_tokens_count")).isEqualTo(blocks + 1);
        assertThat(metric("mnemos_block_tokens_sum")).isPositive();
        assertThat(metric("mnemos_archive_writes_total", "outcome=\"ok\"")).isEqualTo(archived + 1);
        for (String series : List.of("mnemos_model_fallbacks_total", "mnemos_block_over_budget_total",
                "mnemos_model_calls_seconds_count{ai=\"extraction\"")) {
            assertThat(metrics()).as(series).contains(series);
        }
    }

    @Test
    void everyMnemosSeriesOfTheGrafanaDashboardIsExposed() throws IOException {
        // a step through an AI service and an end, so that every lazily created series exists
        String id = as().body(Map.of("goal", "dashboard")).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
        given().auth().oauth2(Tokens.user(user)).contentType(ContentType.TEXT).body("hello")
                .post("/test/trip-chat/{id}", id).then().statusCode(200);
        as().post("/v1/sessions/{id}/end", id).then().statusCode(200);

        var dashboard = new ObjectMapper()
                .readTree(Path.of("../docs/grafana/mnemos-dashboard.json").toFile());
        Set<String> used = new TreeSet<>();
        dashboard.get("panels").forEach(panel -> panel.get("targets").forEach(target -> {
            Matcher m = Pattern.compile("\\bmnemos_[a-z_]+").matcher(target.get("expr").asText());
            while (m.find()) {
                used.add(m.group());
            }
        }));
        assertThat(used).hasSizeGreaterThan(10);
        String exposed = metrics();
        for (String series : used) {
            assertThat(exposed).as(series).containsPattern("(?m)^" + series + "[{ ]");
        }
    }

    private static String metrics() {
        return given().accept("text/plain").get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** The value of the first series of {@code name} whose labels contain every one of {@code labels}; 0 if none. */
    private static double metric(String name, String... labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{([^}]*)\\})? (\\S+)").matcher(metrics());
        while (m.find()) {
            String found = m.group(1) == null ? "" : m.group(1);
            boolean all = true;
            for (String label : labels) {
                all &= found.contains(label);
            }
            if (all) {
                return Double.parseDouble(m.group(2));
            }
        }
        return 0;
    }
}
