package dev.mnemos.deployment.devui;

import io.quarkus.test.QuarkusDevModeTest;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.SearchContext;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Dev UI's <em>Sessions and traces</em> page on Mnemos' card, in a dev-mode application and a headless Chromium:
 * a user with a live session and one AI step that ran a tool is picked on the page, which then lists the session and
 * the step's trace, its tool run included; the goal's and the tool result's markup is shown as text. After one more
 * step, <em>Refresh</em> shows its trace first. A dev-mode application, unlike the other tests here: the Dev UI exists
 * only in dev mode.
 */
class DevUiSessionsPageTest {

    /** A free port (another build on this machine may hold 8080); dev mode does not tell the port it took for 0. */
    static final int PORT = freePort();
    /** The page's path: the Dev UI names a card's pages after the extension's artifact and the page's title. */
    static final String PAGE = "/q/dev-ui/quarkus-mnemos/sessions-and-traces";

    @RegisterExtension
    static final QuarkusDevModeTest APP = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(ToolAssistant.class, ToolAssistant.Forecasts.class,
                    PageSeedResource.class, ToolCallingModel.class)
                    .addAsResource(new StringAsset(configuration()), "application.properties"));

    @Test
    void picksAUserAndSeesTheLiveSessionAndItsLatestTrace() throws Exception {
        // the list is the first users in sort order: this one sorts before what other tests leave in Redis
        String base = "http://localhost:" + PORT;
        String user = "000-devui-page-" + UUID.randomUUID();
        HttpResponse<String> seeded = DevInspector.send(HttpRequest.newBuilder(URI.create(base + "/seed-page/" + user))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(seeded.statusCode()).as(seeded.body()).isEqualTo(200);
        String session = seeded.body().trim();

        ChromeDriver driver = DevInspector.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60), Duration.ofMillis(100));
            driver.get(base + PAGE);
            SearchContext page = wait.until(d -> component(d)).getShadowRoot();
            WebElement users = wait.until(d -> first(page, "#users option[value='" + user + "']") == null ? null
                    : page.findElement(By.cssSelector("#users")));
            new Select(users).selectByValue(user);

            WebElement row = wait.until(d -> first(page, "#sessions tr.session"));
            List<String> cells = texts(row.findElements(By.cssSelector("td")));
            assertThat(cells.get(0)).isEqualTo(session);
            assertThat(cells.get(1)).as("the goal's markup is text").isEqualTo(PageSeedResource.GOAL);
            assertThat(cells.get(2)).isEqualTo("2");
            assertThat(row.findElements(By.cssSelector("b"))).isEmpty();

            WebElement trace = wait.until(d -> first(page, "#traces .trace"));
            assertThat(text(trace.findElement(By.cssSelector(".step")))).isEqualTo("forecast-advice");
            assertThat(text(trace)).contains("wrote v2 of " + session).contains("ToolAssistant.advise");
            WebElement block = trace.findElement(By.cssSelector("pre.block"));
            assertThat(text(block)).as("the block's own tags are text too").startsWith("<memory-data>")
                    .contains(" in Kyoto");
            assertThat(block.findElements(By.cssSelector("*"))).isEmpty();
            List<WebElement> tools = trace.findElements(By.cssSelector("table.tools tbody tr"));
            assertThat(tools).hasSize(1);
            List<String> tool = texts(tools.get(0).findElements(By.cssSelector("td")));
            assertThat(tool.get(0)).isEqualTo("forecast");
            assertThat(tool.get(1)).contains(ToolCallingModel.CITY);
            assertThat(tool.get(2)).as("the tool result's markup is text")
                    .contains(ToolAssistant.Forecasts.PREFIX + ToolCallingModel.CITY);
            assertThat(tool.get(3)).endsWith(" ms");
            assertThat(tools.get(0).findElements(By.cssSelector("b"))).isEmpty();
            assertThat(page.findElements(By.cssSelector("#error"))).isEmpty();

            HttpResponse<String> stepped = DevInspector.send(HttpRequest.newBuilder(
                    URI.create(base + "/seed-page/" + user + "/" + session)).POST(HttpRequest.BodyPublishers.noBody()));
            assertThat(stepped.statusCode()).as(stepped.body()).isEqualTo(204);
            page.findElement(By.cssSelector("#refresh")).click();
            wait.until(d -> texts(page.findElements(By.cssSelector("#traces .trace"))).size() == 2);
            assertThat(texts(page.findElements(By.cssSelector("#traces .trace > div:first-child"))))
                    .as("newest first").satisfiesExactly(
                            newest -> assertThat(newest).contains("wrote v3 of " + session),
                            older -> assertThat(older).contains("wrote v2 of " + session));
            assertThat(texts(page.findElements(By.cssSelector("#sessions tr.session td:nth-child(3)"))))
                    .containsExactly("3");
        } finally {
            screenshot(driver);
            driver.quit();
        }
    }

    /** What the page showed, in {@code target/dev-ui-screenshots/}: at the end of the test, passed or failed. */
    private static void screenshot(ChromeDriver driver) throws IOException {
        Path dir = Path.of("target", "dev-ui-screenshots");
        Files.createDirectories(dir);
        Files.write(dir.resolve("sessions-and-traces.png"), driver.getScreenshotAs(OutputType.BYTES));
    }

    /** The page's web component, wherever the Dev UI nests it in shadow roots; null until it is there. */
    private static WebElement component(org.openqa.selenium.WebDriver driver) {
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

    private static WebElement first(SearchContext page, String css) {
        List<WebElement> found = page.findElements(By.cssSelector(css));
        return found.isEmpty() ? null : found.get(0);
    }

    private static String text(WebElement element) {
        return element.getDomProperty("textContent").strip().replaceAll("\\s+", " ");
    }

    private static List<String> texts(List<WebElement> elements) {
        return elements.stream().map(DevUiSessionsPageTest::text).toList();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The deployment tests' configuration on {@link #PORT}, with the tool-calling model kept as a bean. */
    private static String configuration() {
        try (InputStream in = DevUiSessionsPageTest.class.getResourceAsStream("/mnemos-test.properties")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8) + "\nquarkus.http.port=" + PORT
                    + "\nquarkus.smallrye-jwt.enabled=false"
                    + "\nquarkus.arc.unremovable-types=" + ToolCallingModel.class.getName()
                    + "\nquarkus.mnemos.redis.durability-check=accepted"
                    // the Dev UI's extension management (add or remove an extension) looks up the Quarkus
                    // registry, which this machine cannot reach: each page load logged an ERROR after seconds
                    + "\nquarkus.dev-ui.allow-extension-management=false\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
