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
import java.util.UUID;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/** Promotion beyond the three slots and identical text: clauses, repetition, contradictions, events. */
class GeneralisingPromotionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings());

    @Inject
    AgroalDataSource db;

    private String alice;

    @BeforeEach
    void user() {
        alice = "alice-" + UUID.randomUUID();
    }

    private List<String> profile() {
        return as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath().getList("facts.text", String.class);
    }

    private JsonPath session(String text, boolean explicit) {
        String s = start(alice);
        observe(alice, s, text, null, explicit);
        return end(alice, s);
    }

    @Test
    void contradictionWithoutASlotSupersedesTheOldFactAndIsAudited() throws Exception {
        assertThat(session("I don't eat red meat", true).getList("promoted.text", String.class))
                .containsExactly("I don't eat red meat");
        JsonPath later = session("From now on red meat is fine", true);
        assertThat(later.getString("profileChanges[0].action")).isEqualTo("PROMOTE");
        assertThat(later.getString("profileChanges[0].before")).isEqualTo("I don't eat red meat");
        assertThat(later.getString("profileChanges[0].reason")).startsWith("replaces fact ");
        assertThat(profile()).containsExactly("From now on red meat is fine");
        assertThat(SqlRows.rows(db,
                "select status, (valid_to is not null)::text from profile_fact where user_id = ? and text = ?", alice,
                "I don't eat red meat")).containsExactly(List.of("SUPERSEDED", "true"));
        as(alice).get("/v1/profile/history").then().statusCode(200)
                .body("events.find { it.before == \"I don't eat red meat\" }.after", equalTo("From now on red meat is fine"));
    }

    @Test
    void aRequestRunOnIntoAStatementPromotesOnlyTheStatement() {
        JsonPath ended = session("Book a table for Friday I'm vegetarian", true);
        assertThat(ended.getList("promoted.text", String.class)).containsExactly("I'm vegetarian");
        assertThat(ended.getList("rejected.text", String.class)).containsExactly("Book a table for Friday");
        assertThat(session("订去成都的机票我从来不坐红眼航班", true).getList("promoted.text", String.class))
                .containsExactly("我从来不坐红眼航班");
        assertThat(profile()).noneMatch(f -> f.contains("Friday") || f.contains("成都"));
    }

    @Test
    void aStatementWithoutIIsStillAboutTheUser() {
        assertThat(session("Allergic to shellfish", true).getList("promoted.text", String.class))
                .containsExactly("Allergic to shellfish");
        assertThat(session("Find flights to Madrid — not a fan of middle seats", true).getList("promoted.text", String.class))
                .containsExactly("not a fan of middle seats");
        assertThat(session("Window seats for both of us", true).getList("rejected.text", String.class))
                .containsExactly("Window seats for both of us");
    }

    @Test
    void unrelatedFactsOfOppositePolarityBothStay() {
        session("I don't eat red meat", true);
        session("I love red wine", true);
        assertThat(profile()).containsExactlyInAnyOrder("I don't eat red meat", "I love red wine");
    }

    @Test
    void aMoveSupersedesTheHomeSlot() {
        session("I live in Boston", true);
        JsonPath moved = session("I've moved, I live in Denver now", true);
        assertThat(moved.getString("profileChanges[0].before")).isEqualTo("I live in Boston");
        as(alice).get("/v1/profile").then().body("facts.text", equalTo(List.of("I've moved, I live in Denver now")))
                .body("facts[0].slot", equalTo("home.location"));
    }

    @Test
    void rewordedRepetitionsAcrossThreeSessionsAddUp() {
        List<String> wordings = List.of("I'd rather take the train than fly", "I prefer the train to flying",
                "I'd rather go by train than by plane");
        assertThat(session(wordings.get(0), false).getList("pending.text", String.class)).containsExactly(wordings.get(0));
        assertThat(session(wordings.get(1), false).getList("pending.text", String.class)).containsExactly(wordings.get(1));
        assertThat(profile()).isEmpty();
        JsonPath third = session(wordings.get(2), false);
        assertThat(third.getList("promoted.text", String.class)).containsExactly(wordings.get(2));
        assertThat(third.getString("promoted[0].reason")).contains("3 of 3 sessions");
        assertThat(profile()).containsExactly(wordings.get(2));
        as(alice).get("/v1/profile/pending").then().body("$", hasSize(0));
    }

    @Test
    void differentPreferencesOnOneSubjectDoNotAddUp() {
        session("I prefer aisle seats", false);
        session("I prefer window seats", false);
        JsonPath third = session("I prefer aisle seats on long flights", false);
        assertThat(third.getList("promoted")).isEmpty();
        assertThat(profile()).isEmpty();
    }

    @Test
    void aRepeatedTaskConstraintNeverReachesTheProfile() {
        for (String text : List.of("Use a table for this comparison", "use a table for this comparison!",
                "The hotel needs free parking", "The hotel needs free parking", "The hotel needs free parking")) {
            JsonPath report = session(text, true);
            assertThat(report.getList("rejected.text", String.class)).as(text).containsExactly(text);
            assertThat(report.getString("rejected[0].reason")).startsWith("task-scoped");
        }
        session("Use a table for this comparison", false);
        assertThat(profile()).isEmpty();
        as(alice).get("/v1/profile/pending").then().body("$", hasSize(0));
    }

    @Test
    void aMixedSentenceIsDecidedClauseByClause() {
        JsonPath report = session("For this report use bullet points, and always cite sources", true);
        assertThat(report.getList("promoted.text", String.class)).containsExactly("always cite sources");
        assertThat(report.getList("rejected.text", String.class)).containsExactly("For this report use bullet points");
        assertThat(report.getList("promoted.observationId")).hasSize(1).doesNotContainNull();
        assertThat(profile()).containsExactly("always cite sources");
    }

    @Test
    void eventsAreNotPreferencesButRememberedPropertiesAre() {
        JsonPath event = session("Remember that my flight was moved to 9 am", true);
        assertThat(event.getList("rejected.text", String.class)).containsExactly("Remember that my flight was moved to 9 am");
        assertThat(event.getString("rejected[0].reason")).contains("event");
        JsonPath standing = session("Remember I'm vegetarian", true);
        assertThat(standing.getList("promoted.text", String.class)).containsExactly("Remember I'm vegetarian");
        assertThat(profile()).containsExactly("Remember I'm vegetarian");
    }

    @Test
    void habitsAreStandingAndABudgetInsideAStandingStatementDoesNotMakeItTaskScoped() {
        JsonPath report = session("I'm always on a tight budget, so prefer cheap options", true);
        assertThat(report.getList("promoted.text", String.class))
                .containsExactly("I'm always on a tight budget, so prefer cheap options");
        for (String habit : List.of("I never take night buses", "As a rule, no layovers over three hours", "我一般不吃辣",
                "我从来不坐红眼航班", "I no longer drink coffee")) {
            assertThat(session(habit, true).getList("promoted.text", String.class)).as(habit).containsExactly(habit);
        }
    }

    @Test
    void aNegationReplacesWhatItNegates() {
        session("I always drink coffee in the morning", true);
        JsonPath report = session("I no longer drink coffee", true);
        assertThat(report.getString("profileChanges[0].before")).isEqualTo("I always drink coffee in the morning");
        assertThat(profile()).containsExactly("I no longer drink coffee");
    }
}
