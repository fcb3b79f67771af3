package dev.mnemos.deployment.devui;

import dev.mnemos.deployment.RecordingChatModel;
import dev.mnemos.devmode.DevUserIdentityProvider;
import dev.mnemos.devmode.DevUserMechanism;
import dev.mnemos.devmode.DevUsersResource;
import dev.mnemos.devmode.devui.DevUsers;
import dev.mnemos.devmode.devui.MnemosDevUiService;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Outside dev mode (here a test build, with the API on) the dev-mode user switch does not exist: no mechanism, no
 * identity provider, no user list, no picker script, no Dev UI service; the dev header is only an unknown header.
 */
class DevUserOutsideDevModeTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(DevAssistant.class, SeedResource.class, RecordingChatModel.class,
                    DevInspector.class))
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.rest.enabled", "true");

    @TestHTTPResource("/")
    URL root;

    @Test
    void noBeanOfTheSwitchExists() {
        assertThat(Arc.container().select(DevUserMechanism.class).isResolvable()).isFalse();
        assertThat(Arc.container().select(DevUserIdentityProvider.class).isResolvable()).isFalse();
        assertThat(Arc.container().select(DevUsersResource.class).isResolvable()).isFalse();
        assertThat(Arc.container().select(MnemosDevUiService.class).isResolvable()).isFalse();
        assertThat(Arc.container().select(DevUsers.class).isResolvable()).isFalse();
    }

    @Test
    void theDevHeaderSignsNobodyIn() throws Exception {
        String user = "devui-" + UUID.randomUUID();
        var response = DevInspector.send(HttpRequest.newBuilder(URI.create(root + "v1/profile"))
                .header(DevUserMechanism.HEADER, user));
        assertThat(response.statusCode()).isIn(401, 403);
        assertThat(DevInspector.send(HttpRequest.newBuilder(URI.create(root + "v1/dev/users"))).statusCode())
                .isIn(401, 403, 404);
    }

    @Test
    void theInspectorHasNoPicker() throws Exception {
        var page = DevInspector.send(HttpRequest.newBuilder(URI.create(root + "mnemos/inspector/index.html")));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("inspector.js").doesNotContain("dev-user.js").doesNotContain("mnemos-dev-scripts");
        assertThat(DevInspector.send(HttpRequest.newBuilder(URI.create(root + "mnemos/inspector/dev-user.js")))
                .statusCode()).isEqualTo(404);
    }
}
