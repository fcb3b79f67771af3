package dev.mnemos.server.inspector;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A headless Debian Chromium driven through chromedriver, for the inspector's browser tests. Without
 * chromium the tests are skipped with a loud warning, except in CI ({@code CI=true}), where
 * {@code .ci/run} installs it and its absence fails the tests.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "inspector-screenshots");

    final ChromeDriver driver;
    final WebDriverWait wait;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(30), Duration.ofMillis(100));
    }

    static Browser start() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            String why = "chromium or chromedriver is missing (" + CHROMIUM + ", " + CHROMEDRIVER
                    + "): apt-get install chromium chromium-driver";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(why + " — .ci/run installs them in CI");
            }
            System.err.println("\n*** WARNING: the inspector's browser tests are SKIPPED: " + why + " ***\n");
            Assumptions.abort(why);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1100",
                "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, options));
    }

    /** Opens the inspector with a clean session storage and signs in by pasting {@code token}. */
    void signIn(String inspectorUrl, String token, String userId) {
        WebElement input = signedOut(inspectorUrl);
        Assertions.assertFalse(driver.findElement(By.id("nav")).isDisplayed(), "no navigation before signing in");
        input.sendKeys(token);
        driver.findElement(By.id("token-submit")).click();
        wait.until(ExpectedConditions.textToBe(By.id("whoami"), "Signed in as " + userId));
    }

    /** Opens the inspector with a clean session storage: the sign-in form, whose token field it answers. */
    WebElement signedOut(String inspectorUrl) {
        driver.get(inspectorUrl);
        ((JavascriptExecutor) driver).executeScript("sessionStorage.clear()");
        driver.get(inspectorUrl + "#/sessions");
        driver.navigate().refresh();
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input")));
    }

    void open(String inspectorUrl, String fragment) {
        driver.get(inspectorUrl + fragment);
    }

    WebElement visible(By by) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(by));
    }

    /** The exact text of an element, as stored (not the layout-normalised text Selenium's getText gives). */
    String textOf(By by) {
        return wait.until(ExpectedConditions.presenceOfElementLocated(by)).getDomProperty("textContent");
    }

    /** A screenshot of the window scrolled so that {@code at} is at the top. */
    void screenshot(String name, By at) {
        ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView(true)", driver.findElement(at));
        screenshot(name);
    }

    void screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(SCREENSHOTS.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
