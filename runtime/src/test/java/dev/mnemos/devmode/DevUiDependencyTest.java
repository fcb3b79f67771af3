package dev.mnemos.devmode;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Dev UI ({@code io.quarkus:quarkus-devui}) reaches a dev-mode application as a conditional dev dependency of
 * {@code quarkus-vertx-http}; the dev-mode model of an application with Mnemos was resolved without it, so
 * {@code /q/dev-ui} answered 404 (issue 47). The extension's descriptor names it as a dev dependency of Mnemos' own.
 */
class DevUiDependencyTest {

    @Test
    void theExtensionBringsTheDevUiInDevMode() throws IOException {
        Properties descriptor = mnemosDescriptor();
        assertThat(descriptor.getProperty("conditional-dev-dependencies")).contains("io.quarkus:quarkus-devui::jar:");
    }

    private static Properties mnemosDescriptor() throws IOException {
        for (URL url : Collections.list(DevUiDependencyTest.class.getClassLoader()
                .getResources("META-INF/quarkus-extension.properties"))) {
            Properties descriptor = new Properties();
            try (InputStream in = url.openStream()) {
                descriptor.load(in);
            }
            if (descriptor.getProperty("deployment-artifact", "").startsWith("dev.mnemos:quarkus-mnemos-deployment:")) {
                return descriptor;
            }
        }
        throw new AssertionError("no descriptor of quarkus-mnemos on the class path");
    }
}
