package dev.mnemos.deployment.devui;

import dev.mnemos.testsupport.DevUiBrowser;
import dev.mnemos.testsupport.FreePorts;
import io.quarkus.test.QuarkusDevModeTest;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Dev UI of a dev-mode application with the full extension and the REST API (issue 47): Mnemos' card, its
 * <em>Sessions and traces</em> page listing 31 sessions of one user (more than the Redis pool's default wait queue),
 * and the inspector signed in as that user, in a headless Chromium. One application, reloaded from bearer tokens
 * (SmallRye JWT) to HTTP Basic to no authentication; neither its start nor a reload logs a WARN or an ERROR from
 * Mnemos. Starting with JWT on: a reload that turns SmallRye JWT on fails inside Quarkus' class loading.
 */
class DevUiFullExtensionTest {

    static final int PORT = FreePorts.one();
    static final int SESSIONS = 31;
    static final String BASE = "http://localhost:" + PORT;

    @RegisterExtension
    static final QuarkusDevModeTest APP = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(ManySessionsResource.class, BasicUsers.class)
                    .addAsResource(new StringAsset(configuration()), "application.properties"))
            .setLogRecordPredicate(record -> true);

    /** One test: QuarkusDevModeTest starts the application anew for each test method. */
    @Test
    void showsTheCardAndTheSessionsWithJwtThenBasicThenNoMechanism() throws Exception {
        showsTheCardAndTheSessions();
        APP.modifyResourceFile("application.properties", properties -> properties
                .replace("quarkus.smallrye-jwt.enabled=true", "quarkus.smallrye-jwt.enabled=false")
                .replace("quarkus.http.auth.basic=false", "quarkus.http.auth.basic=true"));
        showsTheCardAndTheSessions();
        APP.modifyResourceFile("application.properties",
                properties -> properties.replace("quarkus.http.auth.basic=true", "quarkus.http.auth.basic=false"));
        showsTheCardAndTheSessions();
    }

    private static void showsTheCardAndTheSessions() throws Exception {
        String user = "devui-full-" + UUID.randomUUID();
        HttpResponse<String> seeded = DevInspector.send(HttpRequest.newBuilder(
                URI.create(BASE + "/seed-sessions/" + user + "/" + SESSIONS)).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(seeded.statusCode()).as(seeded.body()).isEqualTo(204);
        try (DevUiBrowser browser = new DevUiBrowser(BASE)) {
            assertThat(browser.extensionsPage()).contains("Session inspector").doesNotContain("Mnemos session memory");
            browser.sessionsPageLists(user, SESSIONS);
            browser.inspectorSignsInAndLists(user, SESSIONS);
        }
        assertThat(DevUiBrowser.mnemosWarnings(APP.getLogRecords())).as("WARN and ERROR from Mnemos").isEmpty();
    }

    /** The deployment tests' configuration on {@link #PORT}, the API on, bearer tokens on and HTTP Basic off. */
    private static String configuration() {
        try (InputStream in = DevUiFullExtensionTest.class.getResourceAsStream("/mnemos-test.properties")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("quarkus.smallrye-jwt.enabled=false", "quarkus.smallrye-jwt.enabled=true")
                    + "\nquarkus.http.port=" + PORT
                    + "\nquarkus.mnemos.rest.enabled=true"
                    + "\nquarkus.http.auth.basic=false"
                    + "\nmp.jwt.verify.publickey=" + DevInspectorJwtTest.publicKey()
                    + "\nmp.jwt.verify.issuer=devui-test"
                    + "\nquarkus.mnemos.redis.durability-check=accepted"
                    // the Dev UI's extension management (add or remove an extension) looks up the Quarkus
                    // registry, which this machine cannot reach: each page load logged an ERROR after seconds
                    + "\nquarkus.dev-ui.allow-extension-management=false\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
