package dev.mnemos.deployment;

import io.quarkus.arc.deployment.BuildTimeConditionBuildItem;
import io.quarkus.deployment.IsDevelopment;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.RunTimeConfigurationDefaultBuildItem;
import io.quarkus.vertx.http.deployment.HttpRootPathBuildItem;
import io.quarkus.vertx.http.deployment.spi.GeneratedStaticResourceBuildItem;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.jandex.ClassInfo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The session inspector: a static page and a small script over Mnemos' REST API, served at
 * {@value #PATH} only when the API is mounted ({@code quarkus.mnemos.rest.enabled=true}), and linked
 * from the Dev UI in dev mode. Its files live in the runtime jar outside {@code META-INF/resources}
 * ({@value #SOURCE}), so an application without the API serves none of them; {@link DevUiProcessor} links it. The page has no
 * endpoint of its own: it calls the API with the signed-in user's credentials.
 */
class InspectorProcessor {

    static final String PATH = "/mnemos/inspector/";
    static final String SOURCE = "dev/mnemos/inspector/";
    static final List<String> FILES = List.of("index.html", "inspector.js", "inspector.css");
    /** Replaced in index.html by the API's base, relative to the page. */
    static final String API_BASE = "{mnemos-api-base}";
    /** Replaced in index.html by the dev-mode scripts in dev mode, by nothing otherwise. */
    static final String DEV_SCRIPTS = "<!--{mnemos-dev-scripts}-->";
    /** Served in dev mode only: the user picker (docs/inspector.md, "From the Dev UI"). */
    static final String DEV_USER_SCRIPT = "dev-user.js";
    static final String DEV_PACKAGE = "dev.mnemos.devmode";

    @BuildStep
    void inspector(MnemosBuildConfig config, List<MnemosDevToolsBuildItem> devTools,
            BuildProducer<GeneratedStaticResourceBuildItem> resources) {
        if (!config.rest().enabled()) {
            return;
        }
        boolean dev = !devTools.isEmpty();
        for (String file : FILES) {
            byte[] content = read(SOURCE + file);
            if (file.equals("index.html")) {
                String page = new String(content, StandardCharsets.UTF_8).replace(API_BASE, apiBase())
                        .replace(DEV_SCRIPTS, dev ? "<script src=\"" + DEV_USER_SCRIPT + "\" defer></script>" : "");
                content = page.getBytes(StandardCharsets.UTF_8);
            }
            resources.produce(new GeneratedStaticResourceBuildItem(PATH + file, content));
        }
        if (dev) {
            resources.produce(new GeneratedStaticResourceBuildItem(PATH + DEV_USER_SCRIPT, read(SOURCE + DEV_USER_SCRIPT)));
        }
    }

    @BuildStep(onlyIf = IsDevelopment.class)
    MnemosDevToolsBuildItem devTools() {
        return new MnemosDevToolsBuildItem();
    }

    /**
     * The dev-mode user switch ({@code dev.mnemos.devmode}: an authentication mechanism for the inspector's
     * {@code X-Mnemos-Dev-User} header and the list of users) exists only in dev mode with the API on: in any other
     * build, production and tests included, its classes are neither beans nor endpoints.
     */
    @BuildStep
    void devUserSwitch(MnemosBuildConfig config, List<MnemosDevToolsBuildItem> devTools, CombinedIndexBuildItem index,
            BuildProducer<BuildTimeConditionBuildItem> conditions) {
        if (config.rest().enabled() && !devTools.isEmpty()) {
            return;
        }
        for (ClassInfo type : index.getIndex().getKnownClasses()) {
            if (DEV_PACKAGE.equals(type.name().packagePrefix())) {
                conditions.produce(new BuildTimeConditionBuildItem(type, false));
            }
        }
    }

    /**
     * The inspector shows a user's sessions: no other site may frame it (clickjacking). The headers are Quarkus HTTP
     * filters given as configuration defaults, so an application can still change them; the Dev UI, on the same
     * origin, still embeds the page.
     */
    @BuildStep
    void frameHeaders(MnemosBuildConfig config, HttpRootPathBuildItem root,
            BuildProducer<RunTimeConfigurationDefaultBuildItem> defaults) {
        if (!config.rest().enabled()) {
            return;
        }
        String filter = "quarkus.http.filter.mnemos-inspector.";
        defaults.produce(
                new RunTimeConfigurationDefaultBuildItem(filter + "matches", root.resolvePath(PATH.substring(1)) + ".*"));
        defaults.produce(new RunTimeConfigurationDefaultBuildItem(filter + "header.\"X-Frame-Options\"", "SAMEORIGIN"));
        defaults.produce(new RunTimeConfigurationDefaultBuildItem(filter + "header.\"Content-Security-Policy\"",
                "frame-ancestors 'self'"));
    }

    /**
     * The page sits at {@code {root}/mnemos/inspector/}; the API at {@code {root}{quarkus.rest.path}/v1/}.
     * A relative base keeps {@code quarkus.http.root-path} out of it.
     */
    static String apiBase() {
        String restPath = ConfigProvider.getConfig().getOptionalValue("quarkus.rest.path", String.class).orElse("/");
        String trimmed = restPath.replaceAll("^/+|/+$", "");
        return "../../" + (trimmed.isEmpty() ? "" : trimmed + "/");
    }

    private static byte[] read(String resource) {
        try (InputStream in = InspectorProcessor.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the inspector file " + resource + " is missing from quarkus-mnemos");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
