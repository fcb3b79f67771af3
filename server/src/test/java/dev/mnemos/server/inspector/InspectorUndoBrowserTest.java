package dev.mnemos.server.inspector;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.net.URL;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inspector's undo of a session's promotion (on its promotion report) and its profile time view, in a real
 * headless Chromium against the running server (docs/inspector.md). Screenshots go to
 * {@code target/inspector-screenshots/}.
 */
@QuarkusTest
class InspectorUndoBrowserTest {

    private static Browser browser;

    @TestHTTPResource("/mnemos/inspector/")
    URL inspector;

    @BeforeAll
    static void startBrowser() {
        browser = Browser.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    private static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    /**
     * {@code text} in {@code slot} as an earlier session promoted it: a session end supersedes a promoted fact, never one
     * the user typed (that waits for the user's confirmation).
     */
    private static long promoted(String user, String text, String slot) {
        ended(user, List.of(List.of(text, slot)));
        return as(user).get("/v1/profile").then().statusCode(200).extract().jsonPath()
                .getLong("facts.find { it.text == '" + text + "' }.id");
    }

    /** A session that observes each {text, slot} explicitly, ended: its promotion report's promoted texts. */
    private static String ended(String user, List<List<String>> observations) {
        String session = as(user).body(Map.of("goal", "a task")).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
        for (List<String> o : observations) {
            Map<String, Object> body = new HashMap<>(Map.of("text", o.get(0), "kind", "PREFERENCE", "explicit", true));
            body.put("slot", o.get(1));
            as(user).body(body).post("/v1/sessions/{id}/observations", session).then().statusCode(200);
        }
        as(user).post("/v1/sessions/{id}/end", session).then().statusCode(200);
        return session;
    }

    private static List<String> texts(String user) {
        return as(user).get("/v1/profile").then().statusCode(200).extract().jsonPath().getList("facts.text", String.class);
    }

    private void confirm(String expected) {
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("confirm-text"), expected));
        browser.driver.findElement(By.id("confirm-yes")).click();
    }

    @Test
    void undoFromTheReportThenStepThroughTheProfileOverTime() {
        String carol = "insp-carol-" + UUID.randomUUID();
        long berlin = promoted(carol, "I live in Berlin", "home.city");
        String session = ended(carol, List.of(List.of("I live in Paris", "home.city"),
                List.of("Always answer in Chinese", "output.language")));
        assertThat(texts(carol)).containsExactlyInAnyOrder("I live in Paris", "Always answer in Chinese");

        browser.signIn(inspector.toString(), Tokens.user(carol), carol);
        browser.open(inspector.toString(), "#/session/" + session);
        browser.visible(By.id("report-promoted"));
        browser.visible(By.id("undo-btn")).click();
        confirm("Undo the promotion of session " + session);
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Undone: 3 facts reverted"));
        assertThat(browser.textOf(By.cssSelector("#undo-changes tr[data-action='RESTORE']"))).contains("I live in Berlin");
        browser.screenshot("undo-report", By.id("report-section"));
        assertThat(texts(carol)).containsExactly("I live in Berlin");

        // the profile over time: the newest instant is the undo, then the end, then the first fact
        browser.open(inspector.toString(), "#/profile");
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("time-step"), "change 3 of 3"));
        browser.wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#time-changes tbody tr"), 3));
        assertThat(browser.textOf(By.cssSelector("#time-facts tbody"))).isEqualTo("I live in Berlinhome.city"
                + browser.textOf(By.cssSelector("#time-facts tbody td:nth-child(3)")) + "restore by " + carol + " in "
                + session);
        assertThat(browser.textOf(By.cssSelector("#time-changes tr[data-change='added'][data-fact='" + berlin + "']")))
                .contains("RESTORE", session);
        assertThat(browser.driver.findElements(By.cssSelector("#time-changes tr[data-change='removed']"))).hasSize(2);
        browser.screenshot("profile-time-undo", By.id("time-title"));

        browser.driver.findElement(By.id("time-earlier")).click();
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("time-step"), "change 2 of 3"));
        browser.wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#time-facts tbody tr"), 2));
        assertThat(browser.textOf(By.id("time-facts"))).contains("I live in Paris", "Always answer in Chinese")
                .doesNotContain("Berlin");
        assertThat(browser.textOf(By.cssSelector("#time-changes tr[data-change='removed']"))).contains("I live in Berlin",
                "PROMOTE", session);
        assertThat(browser.visible(By.cssSelector("#time-changes tr[data-change='removed'] a")).getDomAttribute("href"))
                .isEqualTo("#/session/" + session);
        browser.screenshot("profile-time-end", By.id("time-title"));

        browser.driver.findElement(By.id("time-earlier")).click();
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("time-step"), "change 1 of 3"));
        browser.wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#time-changes tbody tr"), 1));
        assertThat(browser.textOf(By.id("time-facts"))).contains("I live in Berlin").doesNotContain("Paris");
        assertThat(browser.textOf(By.id("time-changes"))).contains("added", "PROMOTE");
        assertThat(browser.visible(By.id("time-earlier")).isEnabled()).isFalse();
    }

    @Test
    void aRefusedUndoNamesTheFactsAndCanBeForced() {
        String dave = "insp-dave-" + UUID.randomUUID();
        promoted(dave, "I live in Berlin", "home.city");
        String first = ended(dave, List.of(List.of("I live in Madrid", "home.city"),
                List.of("Always answer in Spanish", "output.language")));
        long madrid = as(dave).get("/v1/profile").then().extract().jsonPath()
                .getLong("facts.find { it.text == 'I live in Madrid' }.id");
        ended(dave, List.of(List.of("I live in Rome", "home.city")));

        browser.signIn(inspector.toString(), Tokens.user(dave), dave);
        browser.open(inspector.toString(), "#/session/" + first);
        browser.visible(By.id("undo-btn")).click();
        confirm("Undo the promotion of session " + first);
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Not undone"));
        assertThat(browser.textOf(By.id("message"))).contains("fact " + madrid, "force=true");
        browser.visible(By.cssSelector("#undo-conflicts li[data-fact='" + madrid + "']"));
        browser.screenshot("undo-refused", By.id("report-section"));
        assertThat(texts(dave)).containsExactlyInAnyOrder("I live in Rome", "Always answer in Spanish");

        browser.visible(By.id("undo-force-btn")).click();
        confirm("anyway");
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Undone: 1 facts reverted"));
        browser.visible(By.cssSelector("#undo-kept li[data-fact='" + madrid + "']"));
        assertThat(browser.driver.findElement(By.id("undo-force-btn")).isDisplayed()).isFalse();
        assertThat(texts(dave)).containsExactly("I live in Rome");
    }
}
