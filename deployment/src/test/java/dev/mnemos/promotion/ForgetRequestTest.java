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

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * "forget …" said in a conversation is a forget request, never a fact (issue 51, item 4), in every shipped language,
 * with the server's settings: the end of the task leaves it pending, the fact it names stays until the user confirms,
 * and the confirmation forgets the fact as the profile's forget does, leaving its text nowhere.
 */
class ForgetRequestTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings());

    /** Per shipped language: a fact, and a request to forget it. */
    static final Map<String, List<String>> LANGUAGES = Map.of(
            "en", List.of("I live in Boston", "forget that I live in Boston"),
            "zh", List.of("我住在北京", "忘记我住在北京"),
            "es", List.of("Vivo en Madrid", "Olvida que vivo en Madrid"),
            "de", List.of("Ich wohne in Berlin", "Vergiss, dass ich in Berlin wohne"),
            "fr", List.of("J'habite à Lyon", "Oublie que j'habite à Lyon"),
            "ja", List.of("東京に住んでいる", "東京に住んでいることを忘れて"));

    @Inject
    AgroalDataSource db;

    private String alice;

    @BeforeEach
    void user() {
        alice = "forget-req-" + UUID.randomUUID();
    }

    @Test
    void forgetThatILiveInBostonIsAForgetRequestAndItsConfirmationForgetsTheFact() throws Exception {
        as(alice).body(Map.of("text", "I live in Boston")).post("/v1/profile/facts").then().statusCode(201);
        String s = start(alice);
        observe(alice, s, "forget that I live in Boston", null, true);
        observe(alice, s, "From now on answer with bullet points", null, true);
        JsonPath report = end(alice, s);

        assertThat(report.getList("promoted.text", String.class)).containsExactly("From now on answer with bullet points");
        assertThat(report.getList("pending.text", String.class)).containsExactly("forget that I live in Boston");
        assertThat(report.getString("pending[0].reason")).contains("request to forget");
        assertThat(profile()).as("nothing is forgotten before the user confirms").containsExactlyInAnyOrder(
                "I live in Boston", "From now on answer with bullet points");

        long candidate = report.getLong("pending[0].candidateId");
        as(alice).post("/v1/profile/pending/{id}/confirm", candidate).then().statusCode(200);
        assertThat(profile()).containsExactly("From now on answer with bullet points");
        assertThat(as(alice).get("/v1/profile/pending").then().statusCode(200).extract().jsonPath().getList("id"))
                .isEmpty();
        assertThat(SqlRows.count(db, "select count(*) from profile_fact where user_id = ? and text like ?", alice,
                "%Boston%")).as("no fact keeps the text").isZero();
        assertThat(SqlRows.count(db, "select count(*) from promotion_candidate where user_id = ? and text like ?", alice,
                "%Boston%")).as("no candidate keeps it").isZero();
        assertThat(SqlRows.count(db,
                "select count(*) from profile_event where user_id = ? and (before like ? or after like ? or reason like ?)",
                alice, "%Boston%", "%Boston%", "%Boston%")).as("no audit event quotes it").isZero();
    }

    @Test
    void aForgetRequestIsNeverAFactInAnyShippedLanguage() {
        LANGUAGES.forEach((language, pair) -> {
            String user = alice + "-" + language;
            as(user).body(Map.of("text", pair.get(0))).post("/v1/profile/facts").then().statusCode(201);
            String s = start(user);
            observe(user, s, pair.get(1), null, true);
            JsonPath report = end(user, s);
            assertThat(report.getList("promoted")).as(language).isEmpty();
            assertThat(report.getList("pending.text", String.class)).as(language).containsExactly(pair.get(1));
            assertThat(texts(user)).as(language).containsExactly(pair.get(0));

            as(user).post("/v1/profile/pending/{id}/confirm", report.getLong("pending[0].candidateId")).then()
                    .statusCode(200);
            assertThat(texts(user)).as(language + ": the confirmation forgets the fact").isEmpty();
        });
    }

    @Test
    void rejectingAForgetRequestKeepsTheFact() {
        as(alice).body(Map.of("text", "I live in Boston")).post("/v1/profile/facts").then().statusCode(201);
        String s = start(alice);
        observe(alice, s, "Please forget that I live in Boston.", null, true);
        long candidate = end(alice, s).getLong("pending[0].candidateId");
        as(alice).post("/v1/profile/pending/{id}/reject", candidate).then().statusCode(200);
        assertThat(profile()).containsExactly("I live in Boston");
    }

    private List<String> profile() {
        return texts(alice);
    }

    private static List<String> texts(String user) {
        return as(user).get("/v1/profile").then().statusCode(200).extract().jsonPath().getList("facts.text", String.class);
    }
}
