package dev.mnemos.deployment.devui;

import dev.mnemos.devmode.DevUserMechanism;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dev-mode inspector of a test application built with Mnemos' dev-mode tools, driven in a headless Chromium: a user
 * with a session and one AI step is picked on the page, which then shows the session and that step's trace. The
 * applications are test builds given the tools by a build step that produces {@code MnemosDevToolsBuildItem}, as dev
 * mode does: they start quicker than a dev-mode application ({@code QuarkusDevModeTest}, which only the Dev UI's own
 * page needs: {@code DevUiSessionsPageTest}).
 */
final class DevInspector {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private DevInspector() {
    }

    /**
     * Seeds a user's session, checks that the API refuses a request without the dev header (answering
     * {@code challenge}, when the application has a mechanism), then picks the user on the page and reads the
     * session and its step's trace.
     */
    static void pickUserAndSeeTrace(URL root, String challenge) throws Exception {
        String base = root.toString().replaceAll("/+$", "");
        String user = "devui-" + UUID.randomUUID();
        HttpResponse<String> seeded = send(HttpRequest.newBuilder(URI.create(base + "/seed/" + user))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(seeded.statusCode()).as(seeded.body()).isEqualTo(200);
        String session = seeded.body().trim();

        HttpResponse<String> anonymous = send(HttpRequest.newBuilder(URI.create(base + "/v1/profile")));
        assertThat(anonymous.statusCode()).isIn(401, 403);
        if (challenge != null) {
            assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                    value -> assertThat(value).startsWithIgnoringCase(challenge));
        }
        HttpResponse<String> fromThePage = send(HttpRequest.newBuilder(URI.create(base + "/v1/profile"))
                .header(DevUserMechanism.INSPECTOR_HEADER, "1"));
        assertThat(fromThePage.statusCode()).isEqualTo(401);
        assertThat(fromThePage.headers().firstValue("WWW-Authenticate")).as("no password prompt").isEmpty();
        HttpResponse<String> asUser = send(HttpRequest.newBuilder(URI.create(base + "/v1/sessions"))
                .header(DevUserMechanism.HEADER, user));
        assertThat(asUser.statusCode()).isEqualTo(200);
        assertThat(asUser.body()).contains(session);

        ChromeDriver driver = browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30), Duration.ofMillis(100));
            String inspector = base + "/mnemos/inspector/";
            driver.get(inspector);
            ((JavascriptExecutor) driver).executeScript("sessionStorage.clear()");
            driver.navigate().refresh();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dev-pick-users button")));
            driver.findElement(By.id("dev-pick-user")).sendKeys(user);
            driver.findElement(By.id("dev-pick-open")).click();
            wait.until(ExpectedConditions.textToBe(By.id("whoami"), "Signed in as " + user));
            wait.until(ExpectedConditions.visibilityOfElementLocated(
                    By.cssSelector("#live-sessions a[href='#/session/" + session + "']"))).click();
            wait.until(ExpectedConditions.textToBe(By.id("trace-version"), "2"));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("trace-block"),
                    "A dev-mode trip to Kyoto"));
            assertThat(driver.findElement(By.cssSelector("#v-2 .step-name")).getDomProperty("textContent"))
                    .isEqualTo("advise");
        } finally {
            driver.quit();
        }
    }

    static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static ChromeDriver browser() {
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
        return new ChromeDriver(service, options);
    }

}
