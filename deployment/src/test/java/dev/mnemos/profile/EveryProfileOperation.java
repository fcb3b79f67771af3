package dev.mnemos.profile;

import dev.mnemos.testsupport.Tokens;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.hamcrest.Matchers;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every profile and promotion operation over HTTP, as one user: facts added, corrected and forgotten, an instruction,
 * keyed writes and their repeats, an import, reads, history, session ends with promotions, pending candidates confirmed
 * and rejected, an undone promotion and the profile as of a time. {@link ProfileSqlTest} records their SQL,
 * {@link PartitionedByUserTest} runs them on tables partitioned by user.
 */
final class EveryProfileOperation {

    private final String user;

    private EveryProfileOperation(String user) {
        this.user = user;
    }

    private RequestSpecification as() {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    /** Every profile and promotion operation, as {@code user}. */
    static void as(String user) {
        EveryProfileOperation op = new EveryProfileOperation(user);
        op.everyOperation();
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
