package dev.mnemos.support;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.QuarkusUnitTest;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

import java.util.function.Consumer;

/**
 * A test application with the extension's REST API on, taking the bearer tokens {@link Tokens} mints. The test class
 * runs in the application and sees only what that holds, so this class adds itself; {@link Tokens} and the test key
 * pair come from quarkus-mnemos-test-support, a dependency of the application, whose classes and resources are on its
 * classpath without being added.
 */
public final class RestApi {

    private RestApi() {
    }

    /**
     * A new application with {@code mnemos-test.properties} and the server's settings for the profile: Mnemos'
     * extraction, reconcile and summaries take their deterministic paths (no model), and near duplicates
     * (rewordings) are found with the in-process embedding model.
     */
    public static QuarkusUnitTest withServerSettings() {
        return new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
                .overrideConfigKey("quarkus.mnemos.llm.enabled", "false")
                .overrideConfigKey("quarkus.mnemos.profile.embeddings", "AUTO");
    }

    /** {@code app} with the extension's REST API on. */
    public static QuarkusUnitTest on(QuarkusUnitTest app) {
        return on(app, jar -> {
        });
    }

    /**
     * {@code app} with the classes {@code root} adds (the test's helpers from src/test/java), and with the
     * extension's REST API on.
     */
    public static QuarkusUnitTest on(QuarkusUnitTest app, Consumer<JavaArchive> root) {
        return app.withApplicationRoot(jar -> {
            root.accept(jar);
            jar.addClass(RestApi.class);
        })
                .overrideConfigKey("quarkus.mnemos.rest.enabled", "true")
                .overrideConfigKey("quarkus.smallrye-jwt.enabled", "true")
                .overrideConfigKey("mp.jwt.verify.publickey.location", Tokens.PUBLIC_KEY)
                .overrideConfigKey("mp.jwt.verify.issuer", Tokens.ISSUER);
    }
}
