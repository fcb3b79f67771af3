package dev.mnemos.deployment.devui;

import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inspector's step trace of a step whose model call ran a tool, in a headless Chromium: the Tools table shows
 * the tool, its arguments and its result, the result's markup as text (never parsed into elements).
 */
class DevInspectorToolRunsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(ToolAssistant.class, ToolAssistant.Forecasts.class,
                    ToolSeedResource.class, ToolCallingModel.class, DevInspector.class, DevTools.class))
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.rest.enabled", "true")
            .overrideConfigKey("quarkus.smallrye-jwt.enabled", "false")
            .overrideConfigKey("quarkus.arc.unremovable-types", ToolCallingModel.class.getName())
            .addBuildChainCustomizer(DevTools.builtIn());

    @TestHTTPResource("/")
    URL root;

    @Test
    void theStepTraceListsTheToolRunAsText() throws Exception {
        String base = root.toString().replaceAll("/+$", "");
        String user = "devui-tools-" + UUID.randomUUID();
        HttpResponse<String> seeded = DevInspector.send(HttpRequest.newBuilder(URI.create(base + "/seed-tools/" + user))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(seeded.statusCode()).as(seeded.body()).isEqualTo(200);
        String session = seeded.body().trim();

        ChromeDriver driver = DevInspector.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30), Duration.ofMillis(100));
            driver.get(base + "/mnemos/inspector/");
            ((JavascriptExecutor) driver).executeScript("sessionStorage.clear()");
            driver.navigate().refresh();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dev-pick-users button")));
            driver.findElement(By.id("dev-pick-user")).sendKeys(user);
            driver.findElement(By.id("dev-pick-open")).click();
            wait.until(ExpectedConditions.textToBe(By.id("whoami"), "Signed in as " + user));
            wait.until(ExpectedConditions.visibilityOfElementLocated(
                    By.cssSelector("#live-sessions a[href='#/session/" + session + "']"))).click();
            wait.until(ExpectedConditions.textToBe(By.id("trace-version"), "2"));

            WebElement table = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("trace-tools")));
            List<WebElement> rows = table.findElements(By.cssSelector("tbody tr"));
            assertThat(rows).hasSize(1);
            List<String> cells = rows.get(0).findElements(By.tagName("td")).stream()
                    .map(td -> td.getDomProperty("textContent")).toList();
            assertThat(cells.get(0)).isEqualTo("forecast");
            assertThat(cells.get(1)).contains(ToolCallingModel.CITY);
            assertThat(cells.get(2)).as("the result as recorded: its text, quoted as JSON")
                    .contains(ToolAssistant.Forecasts.PREFIX + ToolCallingModel.CITY);
            assertThat(cells.get(3)).endsWith(" ms");
            assertThat(table.findElements(By.tagName("b"))).as("stored markup is text").isEmpty();
            assertThat(driver.findElements(By.id("no-tools"))).isEmpty();
        } finally {
            driver.quit();
        }
    }
}
