package dev.mnemos.agent;

import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * This turn beats the profile in both directions: "this time answer in English" with a Chinese profile
 * gets English for the rest of the session, "这次用中文回答" with an English profile gets Chinese; the
 * override is rejected at the end as an override (not for a word such as "budget") and the profile
 * is unchanged.
 */
@QuarkusTest
class ReplyLanguageOverrideTest {

    @Inject
    ScriptedChatModel model;

    @BeforeEach
    void offlineModel() {
        model.reset();
    }

    private static AgentChat withProfile(String user, String fact) {
        given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON)
                .body(Map.of("category", "LANGUAGE", "slot", "output.language", "text", fact))
                .post("/v1/profile/facts").then().statusCode(201);
        return new AgentChat(Tokens.user(user));
    }

    private static boolean chinese(String text) {
        return text.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN);
    }

    @Test
    void englishThisTimeBeatsAChineseProfile() {
        String user = "u-" + UUID.randomUUID();
        AgentChat chat = withProfile(user, "Always answer in Chinese");
        JsonPath first = chat.say("This time answer in English. I want to plan a weekend in Rome, my budget is 300 euros");
        assertThat(chinese(first.getString("reply"))).as(first.getString("reply")).isFalse();
        JsonPath second = chat.say("Two days, leaving Friday");
        assertThat(chinese(second.getString("reply"))).as("the override holds for the session: " + second.getString("reply"))
                .isFalse();
        JsonPath end = chat.say("Done");
        assertThat(chinese(end.getString("reply"))).isFalse();
        assertThat(end.getList("promotion.promoted")).isEmpty();
        assertThat(end.getString("promotion.rejected.find { it.observationId == 'turn-override.output.language' }.reason"))
                .contains("override").doesNotContain("budget");
        given().auth().oauth2(Tokens.user(user)).get("/v1/profile").then()
                .body("facts.text", equalTo(List.of("Always answer in Chinese")));
    }

    @Test
    void chineseThisTimeBeatsAnEnglishProfile() {
        String user = "u-" + UUID.randomUUID();
        AgentChat chat = withProfile(user, "Always answer in English");
        JsonPath first = chat.say("这次用中文回答，我想计划一次杭州周末游");
        assertThat(chinese(first.getString("reply"))).as(first.getString("reply")).isTrue();
        JsonPath end = chat.say("Done");
        assertThat(chinese(end.getString("reply"))).as(end.getString("reply")).isTrue();
        assertThat(end.getString("promotion.rejected.find { it.observationId == 'turn-override.output.language' }.reason"))
                .contains("override");
        given().auth().oauth2(Tokens.user(user)).get("/v1/profile").then()
                .body("facts.text", equalTo(List.of("Always answer in English")));
    }

    @Test
    void withoutAnOverrideTheProfileLanguageHolds() {
        AgentChat chat = withProfile("u-" + UUID.randomUUID(), "Always answer in Chinese");
        JsonPath first = chat.say("I want to plan a weekend in Rome");
        assertThat(chinese(first.getString("reply"))).as(first.getString("reply")).isTrue();
    }
}
