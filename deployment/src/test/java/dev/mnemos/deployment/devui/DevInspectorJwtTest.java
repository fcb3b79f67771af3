package dev.mnemos.deployment.devui;

import dev.mnemos.deployment.RecordingChatModel;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URL;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** The dev-mode inspector in an application that takes bearer tokens (SmallRye JWT). */
class DevInspectorJwtTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(DevAssistant.class, SeedResource.class, RecordingChatModel.class,
                    DevInspector.class, DevTools.class))
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.rest.enabled", "true")
            .overrideConfigKey("quarkus.arc.unremovable-types", RecordingChatModel.class.getName())
            .overrideConfigKey("quarkus.smallrye-jwt.enabled", "true")
            .overrideConfigKey("mp.jwt.verify.publickey", publicKey())
            .overrideConfigKey("mp.jwt.verify.issuer", "devui-test")
            .addBuildChainCustomizer(DevTools.builtIn());

    /** A key of this test's own: the application verifies tokens, none of which the inspector needs. */
    static String publicKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return Base64.getEncoder().encodeToString(generator.generateKeyPair().getPublic().getEncoded());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @TestHTTPResource("/")
    URL root;

    @Test
    void picksAUserAndSeesTheSessionAndItsTrace() throws Exception {
        DevInspector.pickUserAndSeeTrace(root, "Bearer");
    }
}
