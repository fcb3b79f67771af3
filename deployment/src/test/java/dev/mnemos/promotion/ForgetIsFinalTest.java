package dev.mnemos.promotion;

import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.SqlRows;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Forget is final: a forgotten text, and its rewordings, never come back from a session end, a pending
 * candidate or an import; only the user's own statement after the forget brings it back.
 */
class ForgetIsFinalTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings());

    private static final String CAPTAIN = "From now on call me Captain";
    /** Rewordings of {@link #CAPTAIN}: one with the same normalised text, one near by embedding. */
    private static final List<String> REWORDINGS = List.of("From now on, call me captain!",
            "Please call me Captain from now on");

    @Inject
    AgroalDataSource db;

    private String alice;

    @BeforeEach
    void user() {
        alice = "alice-" + UUID.randomUUID();
    }

    @Test
    void aForgottenFactIsNeverPromotedAgainFromLiveSessions() throws Exception {
        String first = start(alice);
        observe(alice, first, CAPTAIN, null, true);
        List<String> live = List.of(start(alice), start(alice), start(alice));
        observe(alice, live.get(0), CAPTAIN, null, true);
        observe(alice, live.get(1), REWORDINGS.get(0), null, true);
        observe(alice, live.get(2), REWORDINGS.get(1), null, true);
        observe(alice, live.get(2), "From now on answer with bullet points", null, true);
        long factId = end(alice, first).getLong("profileChanges[0].factId");
        assertThat(profile()).containsExactly(CAPTAIN);

        as(alice).delete("/v1/profile/facts/{id}", factId).then().statusCode(200);

        List<JsonPath> reports = new ArrayList<>();
        for (String session : live) {
            reports.add(end(alice, session));
        }
        String later = start(alice);
        observe(alice, later, CAPTAIN, null, true);
        reports.add(end(alice, later));
        long repromoted = reports.stream().flatMap(r -> r.getList("promoted.text", String.class).stream())
                .filter(t -> t.equals(CAPTAIN) || REWORDINGS.contains(t)).count();
        assertThat(repromoted).as("re-promotions after forget").isZero();
        assertThat(reports).as("each report says why").allMatch(r -> r.getList("rejected.reason", String.class).stream()
                .anyMatch(reason -> reason.contains("forgotten")));
        assertThat(profile()).as("an unrelated standing preference still lands")
                .containsExactly("From now on answer with bullet points");
        assertThat(count("select count(*) from profile_fact where user_id = ? and text in (?, ?, ?)", alice, CAPTAIN,
                REWORDINGS.get(0), REWORDINGS.get(1))).isZero();
        assertThat(count("select count(*) from promotion_candidate where user_id = ? and text in (?, ?, ?)", alice,
                CAPTAIN, REWORDINGS.get(0), REWORDINGS.get(1))).as("no candidate keeps the forgotten text").isZero();
        assertThat(count("select count(*) from profile_event where user_id = ? and (before in (?, ?, ?) or after in (?, ?, ?))",
                alice, CAPTAIN, REWORDINGS.get(0), REWORDINGS.get(1), CAPTAIN, REWORDINGS.get(0), REWORDINGS.get(1)))
                .as("no audit event quotes it").isZero();
    }

    @Test
    void forgettingDropsThePendingCandidatesOfTheTextAndItsRewordings() throws Exception {
        String s = start(alice);
        observe(alice, s, "I like aisle seats", null, false);
        observe(alice, s, "I prefer aisle seats", null, false);
        observe(alice, s, "I like the colour green", null, false);
        end(alice, s);
        long fact = as(alice).body(Map.of("text", "I like aisle seats")).post("/v1/profile/facts").then().statusCode(201)
                .extract().jsonPath().getLong("changes[0].factId");
        as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);
        assertThat(as(alice).get("/v1/profile/pending").then().statusCode(200).extract().jsonPath()
                .getList("text", String.class)).containsExactly("I like the colour green");
    }

    @Test
    void neitherAnImportNorAnInstructionRecordedBeforeBringsItBack() throws Exception {
        long fact = as(alice).body(Map.of("text", "My wife is called Anna")).post("/v1/profile/facts").then()
                .statusCode(201).extract().jsonPath().getLong("changes[0].factId");
        as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);
        as(alice).body(Map.of("text", "- My wife is called Anna\n- My wife's name is Anna\n- Enjoys hiking"))
                .post("/v1/profile/import").then().statusCode(200);
        assertThat(profile()).containsExactly("Enjoys hiking");
    }

    @Test
    void theUsersOwnStatementAfterTheForgetBringsItBack() {
        long fact = as(alice).body(Map.of("text", CAPTAIN)).post("/v1/profile/facts").then().statusCode(201)
                .extract().jsonPath().getLong("changes[0].factId");
        as(alice).delete("/v1/profile/facts/{id}", fact).then().statusCode(200);
        as(alice).body(Map.of("instruction", "remember " + CAPTAIN)).post("/v1/profile/instruct").then().statusCode(200);
        assertThat(profile()).containsExactly(CAPTAIN);
        long again = as(alice).get("/v1/profile").then().extract().jsonPath().getLong("facts[0].id");
        as(alice).delete("/v1/profile/facts/{id}", again).then().statusCode(200);
        as(alice).body(Map.of("text", CAPTAIN)).post("/v1/profile/facts").then().statusCode(201);
        as(alice).delete("/v1/profile/facts/{id}", as(alice).get("/v1/profile").then().extract().jsonPath()
                .getLong("facts[0].id")).then().statusCode(200);
        as(alice).body(Map.of("text", CAPTAIN)).post("/v1/profile/facts").then().statusCode(201);
        String s = start(alice);
        observe(alice, s, CAPTAIN, null, true);
        end(alice, s);
        assertThat(profile()).as("stated anew, then seen again: one fact").containsExactly(CAPTAIN);
    }

    private List<String> profile() {
        return as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath().getList("facts.text", String.class);
    }

    private long count(String sql, Object... params) throws Exception {
        return SqlRows.count(db, sql, params);
    }
}
