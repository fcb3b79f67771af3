package org.acme.packing;

import dev.mnemos.testsupport.DevUiBrowser;
import dev.mnemos.testsupport.FreePorts;
import io.quarkus.test.QuarkusDevModeTest;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * This app in dev mode with {@code quarkus-mnemos-session} (issue 47): the Dev UI shows one Mnemos card, its
 * <em>Sessions and traces</em> page lists 31 sessions of one user (more than the Redis pool's default wait queue), and
 * the inspector signs in as that user though the app has no profile ({@code /v1/profile}), in a headless Chromium. The
 * app signs its users in with HTTP Basic; neither its start nor a reload logs a WARN or an ERROR from Mnemos.
 */
@Tag("dev-mode")
class DevUiSessionOnlyTest {

    static final int PORT = FreePorts.one();
    static final int SESSIONS = 31;
    static final String BASE = "http://localhost:" + PORT;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final QuarkusDevModeTest APP = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(PackingUsers.class)
                    .addAsResource(new StringAsset(configuration()), "application.properties"))
            .setLogRecordPredicate(record -> true);

    @Test
    void showsOneCardTheSessionsAndSignsIn() throws Exception {
        showsTheCardAndTheSessions();
        APP.modifyResourceFile("application.properties", properties -> properties + "\n# reloaded\n");
        showsTheCardAndTheSessions();
    }

    private static void showsTheCardAndTheSessions() throws Exception {
        String user = "devui-session-" + UUID.randomUUID();
        for (int i = 1; i <= SESSIONS; i++) {
            // the dev-mode header acts as the user, from this machine
            HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create(BASE + "/v1/sessions"))
                    .header("X-Mnemos-Dev-User", user).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString("{\"goal\":\"Trip " + i + "\"}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        }
        try (DevUiBrowser browser = new DevUiBrowser(BASE)) {
            String extensions = browser.extensionsPage();
            assertThat(extensions).contains("Session inspector").doesNotContain("Mnemos session memory")
                    .doesNotContain("a user profile in Postgres,");
            browser.sessionsPageLists(user, SESSIONS);
            browser.inspectorSignsInAndLists(user, SESSIONS);
        }
        assertThat(DevUiBrowser.mnemosWarnings(APP.getLogRecords())).as("WARN and ERROR from Mnemos").isEmpty();
    }

    /** The app's own configuration on {@link #PORT}. */
    private static String configuration() {
        try (InputStream in = DevUiSessionOnlyTest.class.getResourceAsStream("/application.properties")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8) + "\nquarkus.http.port=" + PORT
                    + "\nquarkus.mnemos.redis.durability-check=accepted"
                    // the Dev UI's extension management (add or remove an extension) looks up the Quarkus
                    // registry, which this machine cannot reach: each page load logged an ERROR after seconds
                    + "\nquarkus.dev-ui.allow-extension-management=false\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
