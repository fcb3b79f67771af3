package dev.mnemos.testsupport;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.SearchContext;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dev-mode application's Dev UI and session inspector in a headless Chromium, as a developer opens them: Mnemos'
 * card, its <em>Sessions and traces</em> page for one user, and the inspector signed in as that user through the
 * dev-mode user picker. Shared by the full extension's tests and the session-only application's, so that both check
 * the same things. Skips (an assumption) where Chromium or chromedriver is missing.
 */
public final class DevUiBrowser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** The inspector lists live sessions this many at a time (inspector.js). */
    static final int INSPECTOR_PAGE = 20;

    private final String base;
    private final ChromeDriver driver;
    private final WebDriverWait wait;

    public DevUiBrowser(String base) {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "chromium and chromedriver are needed: apt-get install chromium chromium-driver");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // no background calls to Google's services, which this machine's closed network refuses
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1100",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-default-apps");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        this.base = base.replaceAll("/+$", "");
        this.driver = new ChromeDriver(service, options);
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(60), Duration.ofMillis(100));
    }

    /** The text of the Dev UI's extensions page, its shadow roots included, once Mnemos' card is on it. */
    public String extensionsPage() {
        driver.get(base + "/q/dev-ui/extensions");
        try {
            return wait.until(d -> {
                String text = deepText(d);
                return text.contains("Sessions and traces") ? text : null;
            });
        } catch (TimeoutException e) {
            throw new AssertionError("no Mnemos card on the Dev UI's extensions page: " + deepText(driver), e);
        }
    }

    /** Picks {@code user} on the <em>Sessions and traces</em> page and waits for {@code sessions} rows, no error. */
    public void sessionsPageLists(String user, int sessions) {
        driver.get(base + "/q/dev-ui/quarkus-mnemos/sessions-and-traces");
        SearchContext page = wait.until(DevUiBrowser::sessionsComponent).getShadowRoot();
        page.findElement(By.cssSelector("#user")).sendKeys(user);
        page.findElement(By.cssSelector("#open")).click();
        wait.until(d -> !page.findElements(By.cssSelector("#error")).isEmpty()
                || page.findElements(By.cssSelector("#sessions tr.session")).size() == sessions);
        assertThat(page.findElements(By.cssSelector("#error"))).as("the page's error").isEmpty();
        assertThat(page.findElements(By.cssSelector("#sessions tr.session"))).hasSize(sessions);
    }

    /**
     * Opens the inspector, picks {@code user}, sees it signed in as that user and lists all {@code sessions} of theirs,
     * a page at a time.
     */
    public void inspectorSignsInAndLists(String user, int sessions) {
        driver.get(base + "/mnemos/inspector/");
        ((JavascriptExecutor) driver).executeScript("sessionStorage.clear()");
        driver.navigate().refresh();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("dev-pick-user"))).sendKeys(user);
        driver.findElement(By.id("dev-pick-open")).click();
        wait.until(ExpectedConditions.textToBe(By.id("whoami"), "Signed in as " + user));
        By rows = By.cssSelector("#live-sessions tbody tr");
        wait.until(d -> d.findElements(rows).size() >= Math.min(sessions, INSPECTOR_PAGE));
        while (driver.findElements(rows).size() < sessions) {
            int shown = driver.findElements(rows).size();
            driver.findElement(By.id("live-more")).click();
            wait.until(d -> d.findElements(rows).size() > shown);
        }
        assertThat(driver.findElements(rows)).hasSize(sessions);
        assertThat(driver.findElement(By.id("message")).isDisplayed()).as("an error message on the page").isFalse();
    }

    @Override
    public void close() {
        driver.quit();
    }

    /** WARN and ERROR records that come from Mnemos or name it, as a line each. */
    public static List<String> mnemosWarnings(List<LogRecord> records) {
        return records.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                .filter(r -> String.valueOf(r.getLoggerName()).startsWith("dev.mnemos")
                        || message(r).toLowerCase().contains("mnemos"))
                .map(r -> r.getLevel() + " " + r.getLoggerName() + ": " + message(r)).toList();
    }

    /** The message with its parameters: JBoss Log Manager's records format it themselves. */
    private static String message(LogRecord record) {
        try {
            return String.valueOf(record.getClass().getMethod("getFormattedMessage").invoke(record));
        } catch (ReflectiveOperationException e) {
            return String.valueOf(record.getMessage());
        }
    }

    private static WebElement sessionsComponent(WebDriver driver) {
        return (WebElement) ((JavascriptExecutor) driver).executeScript("""
                const find = root => {
                    const hit = root.querySelector('qwc-mnemos-sessions');
                    if (hit) return hit;
                    for (const el of root.querySelectorAll('*')) {
                        const inner = el.shadowRoot && find(el.shadowRoot);
                        if (inner) return inner;
                    }
                    return null;
                };
                const page = find(document);
                return page && page.shadowRoot && page.shadowRoot.querySelector('#open') ? page : null;""");
    }

    private static String deepText(WebDriver driver) {
        return (String) ((JavascriptExecutor) driver).executeScript("""
                const text = root => {
                    let out = '';
                    const nodes = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
                    while (nodes.nextNode()) out += ' ' + nodes.currentNode.nodeValue.trim();
                    for (const el of root.querySelectorAll('*')) {
                        if (el.shadowRoot) out += ' ' + text(el.shadowRoot);
                    }
                    return out;
                };
                return text(document).replace(/\\s+/g, ' ');""");
    }
}
