package dev.mnemos.deployment.devui;

import dev.mnemos.deployment.RecordingChatModel;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URL;

/** The dev-mode inspector in an application with no authentication mechanism of its own. */
class DevInspectorNoSecurityTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(DevAssistant.class, SeedResource.class, RecordingChatModel.class,
                    DevInspector.class, DevTools.class))
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.rest.enabled", "true")
            // SmallRye JWT is on this module's test class path for DevInspectorJwtTest
            .overrideConfigKey("quarkus.smallrye-jwt.enabled", "false")
            .overrideConfigKey("quarkus.arc.unremovable-types", RecordingChatModel.class.getName())
            .addBuildChainCustomizer(DevTools.builtIn());

    @TestHTTPResource("/")
    URL root;

    @Test
    void picksAUserAndSeesTheSessionAndItsTrace() throws Exception {
        DevInspector.pickUserAndSeeTrace(root, null);
    }
}
