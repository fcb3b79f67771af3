package dev.mnemos.promotion;

import dev.mnemos.profile.Topics;
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
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's own facts outrank any session (issue 51, item 3), with the server's settings (embeddings on): a fact the
 * user stated through the profile API, or confirmed, is changed only by the user; a session's correction of it waits
 * for the user's confirmation; contradictions and near-duplicates are never both active after a session end.
 */
class UserFactsOutrankSessionsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings());

    /** What the user typed into the profile. */
    static final List<String> TYPED = List.of("I am vegetarian", "I hate jazz music", "I do not eat red meat",
            "I live in Boston", "I am allergic to peanuts", "I prefer window seats", "I have two kids",
            "Always answer in English");

    /** A session's statements that correct, repeat or contradict them, or each other. */
    static final List<String> SAID = List.of("I love jazz music", "From now on I eat red meat",
            "From now on I do not eat red meat", "I've moved, I live in Denver now", "I am not vegetarian",
            "From now on always answer in French", "I always take the night train", "I never take the night train",
            "From now on I like spicy food", "I always like spicy food");

    @Inject
    AgroalDataSource db;

    private String alice;

    @BeforeEach
    void user() {
        alice = "outrank-" + UUID.randomUUID();
    }

    @Test
    void aLongSessionChangesNoneOfTheUsersFactsAndLeavesNoContradictionOrNearDuplicate() throws Exception {
        Map<Long, String> typed = new LinkedHashMap<>();
        for (String text : TYPED) {
            typed.put(add(text), text);
        }
        String s = start(alice);
        for (String text : SAID) {
            observe(alice, s, text, null, true);
        }
        for (int i = 0; i < 60 - SAID.size(); i++) {
            observe(alice, s, "Find a hotel near the station for night " + i, null, true);
        }
        JsonPath report = end(alice, s);

        Map<Long, String> active = active();
        assertThat(active).as("every fact the user typed, unchanged").containsAllEntriesOf(typed);
        assertThat(report.getList("pending.text", String.class)).as("each correction of a typed fact waits for the user")
                .contains("I love jazz music", "From now on I eat red meat", "I've moved, I live in Denver now",
                        "I am not vegetarian", "From now on always answer in French");
        long jazz = typed.entrySet().stream().filter(e -> e.getValue().equals("I hate jazz music")).findFirst().orElseThrow()
                .getKey();
        assertThat(report.getString("pending.find { it.text == 'I love jazz music' }.reason"))
                .as("the reason names the fact, not its text (which the user may forget)")
                .contains("fact " + jazz, "you stated").doesNotContain("jazz");
        assertThat(SqlRows.count(db, "select count(*) from profile_fact where user_id = ? and status = 'SUPERSEDED'",
                alice)).as("no fact superseded by the end").isZero();
        assertNoContradictionNorNearDuplicate(active.values());
    }

    @Test
    void aConfirmedCorrectionReplacesTheTypedFactAndIsThenTheUsersOwn() throws Exception {
        long meat = add("I do not eat red meat");
        String s = start(alice);
        observe(alice, s, "From now on I eat red meat", null, true);
        long candidate = end(alice, s).getLong("pending.find { it.text == 'From now on I eat red meat' }.candidateId");
        assertThat(active()).containsExactly(Map.entry(meat, "I do not eat red meat"));

        JsonPath confirmed = as(alice).post("/v1/profile/pending/{id}/confirm", candidate).then().statusCode(200).extract()
                .jsonPath();
        assertThat(confirmed.getString("profileChanges.find { it.after == 'From now on I eat red meat' }.before"))
                .as("the user's confirmation replaces the fact it contradicts").isEqualTo("I do not eat red meat");
        assertThat(active().values()).containsExactly("From now on I eat red meat");

        String later = start(alice);
        observe(alice, later, "From now on I never eat red meat", null, true);
        JsonPath report = end(alice, later);
        assertThat(report.getList("promoted")).as("a confirmed fact is the user's own").isEmpty();
        assertThat(report.getList("pending.text", String.class)).containsExactly("From now on I never eat red meat");
        assertThat(active().values()).containsExactly("From now on I eat red meat");
    }

    @Test
    void aFactASessionPromotedStillGivesWayToALaterSession() throws Exception {
        String first = start(alice);
        observe(alice, first, "From now on I do not eat red meat", null, true);
        observe(alice, first, "I live in Boston", null, true);
        observe(alice, first, "I always take the night train", null, true);
        assertThat(end(alice, first).getList("promoted.text", String.class)).hasSize(3);
        String second = start(alice);
        observe(alice, second, "From now on I eat red meat", null, true);
        observe(alice, second, "I've moved, I live in Denver now", null, true);
        observe(alice, second, "From now on I take the night train", null, true);
        JsonPath report = end(alice, second);
        assertThat(report.getList("profileChanges.before", String.class)).contains("From now on I do not eat red meat",
                "I live in Boston");
        assertThat(report.getList("profileChanges.findAll { it.action == 'MERGE' }.after", String.class))
                .as("said again: evidence, not a second fact").containsExactly("I always take the night train");
        assertThat(active().values()).containsExactlyInAnyOrder("From now on I eat red meat",
                "I've moved, I live in Denver now", "I always take the night train");
        assertNoContradictionNorNearDuplicate(active().values());
    }

    @Test
    void twoStatementsOfOneSessionThatContradictEachOtherBothWaitAndOneSaidTwiceIsOneFact() {
        String s = start(alice);
        observe(alice, s, "I always take the night train", null, true);
        observe(alice, s, "I never take the night train", null, true);
        observe(alice, s, "From now on I like spicy food", null, true);
        observe(alice, s, "I like spicy food", null, true);
        JsonPath report = end(alice, s);
        assertThat(report.getList("pending.text", String.class)).containsExactlyInAnyOrder("I always take the night train",
                "I never take the night train");
        assertThat(report.getList("pending.reason", String.class)).allMatch(r -> r.contains("another statement"));
        assertThat(active().values()).containsExactly("From now on I like spicy food");
    }

    private long add(String text) {
        return as(alice).body(Map.of("text", text)).post("/v1/profile/facts").then().statusCode(201).extract().jsonPath()
                .getLong("changes.find { it.after == '" + text + "' }.factId");
    }

    private Map<Long, String> active() {
        JsonPath profile = as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath();
        Map<Long, String> facts = new LinkedHashMap<>();
        List<Long> ids = profile.getList("facts.id", Long.class);
        List<String> texts = profile.getList("facts.text", String.class);
        for (int i = 0; i < ids.size(); i++) {
            facts.put(ids.get(i), texts.get(i));
        }
        return facts;
    }

    /**
     * No two active facts contradict (opposite polarity, 60 % of the smaller topic's words shared) or repeat each other
     * (same polarity, the same topic words), as the markers read them.
     */
    private static void assertNoContradictionNorNearDuplicate(Collection<String> facts) {
        List<String> all = new ArrayList<>(facts);
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                String a = all.get(i);
                String b = all.get(j);
                String topicA = Markers.DEFAULT.topic(a);
                String topicB = Markers.DEFAULT.topic(b);
                if (Markers.DEFAULT.negative(a) != Markers.DEFAULT.negative(b)) {
                    assertThat(Topics.overlap(topicA, topicB)).as("'%s' contradicts '%s', both active", a, b).isLessThan(0.6);
                } else {
                    assertThat(Topics.tokens(topicA)).as("'%s' repeats '%s', both active", a, b)
                            .isNotEqualTo(Topics.tokens(topicB));
                }
            }
        }
    }
}
