package dev.mnemos.server.inspector;

import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The session inspector (docs/inspector.md) in a real headless Chromium against the running server:
 * sessions are created and played through the API and an annotated AI service, then read and acted
 * on from the page. Screenshots of the main views go to {@code target/inspector-screenshots/}.
 */
@QuarkusTest
class InspectorBrowserTest {

    private static Browser browser;

    @TestHTTPResource("/mnemos/inspector/")
    URL inspector;

    @Inject
    ScriptedChatModel model;

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

    @BeforeEach
    void scriptModel() {
        model.reset();
        model.script(request -> "answer " + model.requests().size());
    }

    private static String newUser(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    private static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    private static String createSession(String user, Map<String, Object> body) {
        return as(user).body(body).post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
    }

    /** One step through the annotated AI service, over HTTP, as the session's owner. */
    private static void chat(String user, String session, String message) {
        given().auth().oauth2(Tokens.user(user)).contentType(ContentType.TEXT).body(message)
                .post("/test/trip-chat/{id}", session).then().statusCode(200);
    }

    private static int step(String user, String session, Map<String, Object> patch, String note) {
        return as(user).body(Map.of("patch", patch, "note", note)).post("/v1/sessions/{id}/steps", session)
                .then().statusCode(200).extract().path("version");
    }

    private String url() {
        return inspector.toString();
    }

    private By version(int v) {
        return By.id("v-" + v);
    }

    @Test
    void timelineDiffTraceAndRollbackFromThePage() {
        String alice = newUser("insp-alice");
        String session = createSession(alice, Map.of("goal", "Plan 5 days in Tokyo",
                "constraints", List.of(Map.of("text", "Budget 5000 yuan this time", "scope", "TASK"))));
        chat(alice, session, "we fly on Monday"); // v2
        chat(alice, session, "and come back on Friday"); // v3
        step(alice, session, Map.of("addPlan", Map.of("content", "Day 1: Asakusa\nDay 2: Hakone", "score", 8.5,
                "feedback", "Add a rainy-day option")), "plan drafted"); // v4

        browser.signIn(url(), Tokens.user(alice), alice);
        browser.visible(By.cssSelector("#live-sessions a[href='#/session/" + session + "']"));
        browser.screenshot("sessions");

        browser.open(url(), "#/session/" + session);
        WebElement v4 = browser.visible(version(4));
        assertThat(browser.visible(version(1)).getDomAttribute("data-type")).isEqualTo("create");
        assertThat(browser.visible(version(2)).getDomAttribute("data-type")).isEqualTo("step");
        assertThat(browser.textOf(By.cssSelector("#v-2 .step-name"))).isEqualTo("chat");
        assertThat(browser.textOf(By.cssSelector("#v-2 .meta"))).contains("by ");
        assertThat(v4.getDomAttribute("data-type")).isEqualTo("step");
        assertThat(browser.textOf(By.cssSelector("#v-4 .marker-plan"))).isEqualTo("plan v1");
        // the newest version is selected: its plan, with the evaluation apart from the plan text
        browser.wait.until(ExpectedConditions.textToBe(By.id("state-version"), "4"));
        assertThat(browser.textOf(By.cssSelector("#plan-1 .plan-content"))).isEqualTo("Day 1: Asakusa\nDay 2: Hakone");
        assertThat(browser.textOf(By.cssSelector("#plan-1 .plan-score"))).isEqualTo("8.5");
        assertThat(browser.textOf(By.cssSelector("#plan-1 .plan-feedback"))).isEqualTo("Add a rainy-day option");

        // diff between v1 and v3: what the two AI steps collected
        new Select(browser.visible(By.id("diff-from"))).selectByValue("1");
        new Select(browser.visible(By.id("diff-to"))).selectByValue("3");
        browser.driver.findElement(By.id("diff-run")).click();
        browser.wait.until(ExpectedConditions.textToBe(By.cssSelector("#diff-table th:nth-child(4)"), "v3"));
        WebElement collected = browser.visible(By.cssSelector("#diff-table tr[data-field='collected[answer.chat]']"));
        assertThat(collected.getDomAttribute("class")).isEqualTo("change-added");
        assertThat(collected.findElements(By.tagName("td")).get(3).getDomProperty("textContent")).startsWith("answer");
        browser.screenshot("diff");

        // the trace of v2: read v1 (the newest), the injected block with its tokens against the budget
        browser.driver.findElement(By.cssSelector("#v-2 button")).click();
        browser.wait.until(ExpectedConditions.textToBe(By.id("trace-version"), "2"));
        String block = browser.textOf(By.id("trace-block"));
        String stored = as(alice).get("/v1/sessions/{id}/steps/2/trace", session).then().statusCode(200)
                .extract().path("injected.block");
        assertThat(block).isEqualTo(stored).contains("Plan 5 days in Tokyo").contains("Budget 5000 yuan this time");
        assertThat(browser.textOf(By.id("trace-read"))).isEqualTo("v1");
        assertThat(browser.visible(By.id("trace-newest")).getDomAttribute("class")).isEqualTo("ok");
        assertThat(browser.textOf(By.id("trace-tokens"))).matches("\\d+ of a budget of \\d+");
        assertThat(browser.textOf(By.id("trace-profile"))).startsWith("LOADED");
        assertThat(browser.textOf(By.id("trace-fields"))).contains("collected.answer.chat");
        browser.screenshot("trace", By.id("trace-section"));

        // roll back to v2 from the page: a new v5 equal to v2
        browser.driver.findElement(By.id("rollback-btn")).click();
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("confirm-text"), "to version 2"));
        browser.driver.findElement(By.id("confirm-yes")).click();
        WebElement v5 = browser.visible(version(5));
        assertThat(v5.getDomAttribute("data-type")).isEqualTo("rollback");
        assertThat(browser.textOf(By.cssSelector("#v-5 .marker-rollback"))).isEqualTo("rolled back to v2");
        assertThat(browser.textOf(By.id("message"))).contains("Rolled back: version 5 equals version 2");
        browser.wait.until(ExpectedConditions.textToBe(By.id("state-version"), "5"));
        browser.screenshot("timeline");
        List<Object> plans = as(alice).get("/v1/sessions/{id}", session).then().statusCode(200)
                .extract().path("plans");
        assertThat(plans).isEmpty();

        // a stale rollback: another writer moves the session on before the user confirms; the page says 409
        browser.driver.findElement(By.cssSelector("#v-3 button")).click();
        browser.wait.until(ExpectedConditions.textToBe(By.id("state-version"), "3"));
        browser.driver.findElement(By.id("rollback-btn")).click();
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("confirm-text"), "to version 3"));
        step(alice, session, Map.of("goal", "Plan 6 days in Tokyo"), "someone else"); // v6
        browser.driver.findElement(By.id("confirm-yes")).click();
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Not rolled back"));
        assertThat(browser.textOf(By.id("message"))).contains("now at version 6");
        browser.visible(version(6));
        assertThat(browser.driver.findElements(version(7))).isEmpty();
        as(alice).get("/v1/sessions/{id}", session).then().statusCode(200)
                .body("version", Matchers.is(6));

        // fork from v4 (the version with plan v1): a new session, linked to its parent
        browser.driver.findElement(By.cssSelector("#v-4 button")).click();
        browser.wait.until(ExpectedConditions.textToBe(By.id("state-version"), "4"));
        browser.driver.findElement(By.id("fork-btn")).click();
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("confirm-text"), "from version 4"));
        browser.driver.findElement(By.id("confirm-yes")).click();
        WebElement parent = browser.visible(By.cssSelector("#session-fork a"));
        assertThat(parent.getDomAttribute("href")).isEqualTo("#/session/" + session);
        String fork = browser.textOf(By.id("session-id"));
        assertThat(fork).isNotEqualTo(session);
        assertThat(browser.visible(version(1)).getDomAttribute("data-type")).isEqualTo("fork");
        assertThat(browser.textOf(By.cssSelector("#v-1 .marker-fork"))).isEqualTo("forked from v4 of " + session);
        browser.wait.until(ExpectedConditions.textToBe(By.id("state-version"), "1"));
        assertThat(browser.textOf(By.cssSelector("#plan-1 .plan-content"))).isEqualTo("Day 1: Asakusa\nDay 2: Hakone");
        as(alice).get("/v1/sessions/{id}", fork).then().statusCode(200)
                .body("forkedFrom.sessionId", Matchers.is(session))
                .body("forkedFrom.version", Matchers.is(4));
    }

    @Test
    void pendingCandidateIsConfirmedFromTheProfilePage() {
        String bob = newUser("insp-bob");
        String session = createSession(bob, Map.of("goal", "Book a flight"));
        as(bob).body(Map.of("text", "Likes window seats 🪟", "explicit", false))
                .post("/v1/sessions/{id}/observations", session).then().statusCode(200);
        as(bob).body(Map.of("text", "Likes jazz 🎷", "explicit", false))
                .post("/v1/sessions/{id}/observations", session).then().statusCode(200);
        as(bob).post("/v1/sessions/{id}/end", session).then().statusCode(200)
                .body("pending.text", Matchers.hasItems("Likes window seats 🪟", "Likes jazz 🎷"));

        browser.signIn(url(), Tokens.user(bob), bob);
        // the ended session is listed from the archive, with its promotion report
        browser.visible(By.cssSelector("#ended-sessions a[href='#/session/" + session + "']")).click();
        browser.visible(By.id("report-pending"));
        assertThat(browser.textOf(By.id("report-pending"))).contains("Likes window seats 🪟", "Likes jazz 🎷");
        assertThat(browser.visible(By.id("rollback-btn")).isEnabled()).isFalse();
        browser.screenshot("ended-session", By.id("report-section"));

        browser.open(url(), "#/profile");
        By window = pendingRow("Likes window seats 🪟");
        browser.visible(pendingRow("Likes jazz 🎷"));
        browser.screenshot("profile-pending");
        browser.visible(window).findElement(By.cssSelector("button.confirm")).click();
        WebElement fact = browser.visible(By.cssSelector("#facts tbody tr"));
        assertThat(fact.findElement(By.tagName("td")).getDomProperty("textContent")).isEqualTo("Likes window seats 🪟");
        WebElement provenance = fact.findElement(By.cssSelector("td:nth-child(5)"));
        assertThat(provenance.getDomProperty("textContent")).startsWith("promote by " + bob + " from " + session + " · ");
        assertThat(provenance.findElement(By.tagName("a")).getDomAttribute("href")).isEqualTo("#/session/" + session);
        assertThat(browser.driver.findElements(window)).isEmpty();
        browser.visible(pendingRow("Likes jazz 🎷")).findElement(By.cssSelector("button.reject")).click();
        browser.visible(By.id("pending-empty"));
        assertThat(browser.driver.findElements(By.cssSelector("#facts tbody tr"))).hasSize(1);
        assertThat(browser.textOf(By.id("history"))).contains("Likes window seats 🪟");
        browser.screenshot("profile");
        as(bob).get("/v1/profile").then().statusCode(200)
                .body("facts.text", Matchers.contains("Likes window seats 🪟"));
        as(bob).get("/v1/profile/pending").then().statusCode(200).body("size()", Matchers.is(0));
    }

    private static By pendingRow(String text) {
        return By.xpath("//table[@id='pending']/tbody/tr[td[1][.='" + text + "']]");
    }

    @Test
    void liveSessionsComeTwentyAtATime() {
        String dave = newUser("insp-dave");
        for (int i = 1; i <= 21; i++) {
            createSession(dave, Map.of("goal", "task " + i));
        }
        browser.signIn(url(), Tokens.user(dave), dave);
        browser.wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#live-sessions tbody tr"), 20));
        browser.visible(By.id("live-more")).click();
        browser.wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#live-sessions tbody tr"), 21));
        browser.wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("live-more")));
        assertThat(browser.textOf(By.id("live-sessions"))).contains("task 1", "task 21");
    }

    @Test
    void storedMarkupStaysTextAndUnicodeIsShownAsStored() {
        String carol = newUser("insp-carol");
        String script = "<script>alert(1)</script>";
        String unicode = "去东京 5 天 🗾 — שלום עולם — مرحبا";
        String session = createSession(carol, Map.of("goal", script,
                "constraints", List.of(Map.of("text", unicode, "scope", "STABLE"))));
        step(carol, session, Map.of("putCollected", Map.of("note", "<img src=x onerror=alert(2)>")), "<b>note</b>");

        browser.signIn(url(), Tokens.user(carol), carol);
        browser.visible(By.id("search-id")).sendKeys(session); // search by id
        browser.driver.findElement(By.id("search-open")).click();
        browser.visible(version(2));
        browser.wait.until(ExpectedConditions.textToBe(By.id("state-version"), "2"));
        assertThat(browser.textOf(By.cssSelector("#state dl.fields dd"))).isEqualTo(script);
        assertThat(browser.textOf(By.cssSelector("#state-constraints tbody td"))).isEqualTo(unicode);
        assertThat(browser.textOf(By.cssSelector("#v-2 .note"))).isEqualTo("<b>note</b>");
        assertThat(browser.driver.findElements(By.cssSelector("main script, main img, #timeline b"))).isEmpty();
        assertThatThrownBy(() -> browser.driver.switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        browser.open(url(), "#/sessions");
        browser.visible(By.cssSelector("#live-sessions a[href='#/session/" + session + "']"));
        assertThat(browser.textOf(By.id("live-sessions"))).contains(script);
        assertThatThrownBy(() -> browser.driver.switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
    }

    @Test
    void anotherUsersSessionIsNotShown() {
        String alice = newUser("insp-alice");
        String secret = "Alice's secret goal " + UUID.randomUUID();
        String session = createSession(alice, Map.of("goal", secret));
        String mallory = newUser("insp-mallory");

        browser.signedOut(url()).sendKeys("not-a-token");
        browser.driver.findElement(By.id("token-submit")).click();
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "refused (401)"));
        assertThat(browser.driver.findElement(By.id("nav")).isDisplayed()).isFalse();

        browser.signIn(url(), Tokens.user(mallory), mallory);
        browser.visible(By.id("live-empty"));
        browser.open(url(), "#/session/" + session);
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "not found"));
        assertThat(browser.driver.findElements(By.cssSelector("#timeline li"))).isEmpty();
        assertThat(browser.driver.getPageSource()).doesNotContain(secret);
        browser.open(url(), "#/sessions");
        browser.visible(By.id("live-empty"));
        assertThat(browser.driver.getPageSource()).doesNotContain(secret);
        assertThat(browser.textOf(By.id("live-sessions"))).doesNotContain(session);
    }
}
