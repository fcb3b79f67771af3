package dev.mnemos.server.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Renders every overlay in k8s/overlays with {@code kubectl kustomize} (offline) and checks the
 * invariants an operator relies on. Plain JUnit: no Quarkus application starts.
 */
class KustomizeManifestsTest {

    private static final ObjectMapper YAML = new YAMLMapper();
    private static final Pattern PLACEHOLDER = Pattern.compile("^<REPLACE[^>]*>$");
    private static final int DEFAULT_RESERVED = 3;

    private static Path root;

    @BeforeAll
    static void findRepository() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("k8s/overlays"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("k8s/overlays above " + Path.of("").toAbsolutePath()).isNotNull();
        root = dir;
    }

    @ParameterizedTest
    @ValueSource(strings = { "dev", "prod" })
    void everyContainerHasResourcesProbesAndALockedDownSecurityContext(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        List<JsonNode> workloads = docs.stream().filter(d -> d.at("/spec/template/spec").isObject()).toList();
        assertThat(workloads).as("workloads of " + overlay).isNotEmpty();
        for (JsonNode workload : workloads) {
            JsonNode pod = workload.at("/spec/template/spec");
            String name = workload.at("/kind").asText() + "/" + workload.at("/metadata/name").asText();
            for (JsonNode c : pod.path("containers")) {
                String where = overlay + " " + name + " container " + c.path("name").asText();
                assertLockedDown(where, pod, c);
                for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                    assertThat(c.path(probe).isObject()).as(where + " has a " + probe).isTrue();
                }
            }
            for (JsonNode c : pod.path("initContainers")) {
                assertLockedDown(overlay + " " + name + " init container " + c.path("name").asText(), pod, c);
            }
            assertThat(pod.path("automountServiceAccountToken").asBoolean(true))
                    .as(overlay + " " + name + " does not mount a service account token").isFalse();
        }
    }

    private static void assertLockedDown(String where, JsonNode pod, JsonNode c) {
        assertThat(c.at("/resources/requests/cpu").isMissingNode()).as(where + " requests cpu").isFalse();
        assertThat(c.at("/resources/requests/memory").isMissingNode()).as(where + " requests memory").isFalse();
        assertThat(c.at("/resources/limits/memory").isMissingNode()).as(where + " limits memory").isFalse();
        JsonNode sc = c.path("securityContext");
        boolean nonRoot = sc.path("runAsNonRoot").asBoolean(false) || pod.at("/securityContext/runAsNonRoot").asBoolean(false);
        assertThat(nonRoot).as(where + " runAsNonRoot").isTrue();
        assertThat(sc.path("readOnlyRootFilesystem").asBoolean(false)).as(where + " readOnlyRootFilesystem").isTrue();
        assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true)).as(where + " allowPrivilegeEscalation").isFalse();
        assertThat(texts(sc.at("/capabilities/drop"))).as(where + " drops capabilities").contains("ALL");
        assertThat(c.path("image").asText()).as(where + " image is pinned").doesNotEndWith(":latest").contains(":");
    }

    @Test
    void devRedisPersistsWithAofAndNeverEvicts() throws Exception {
        List<JsonNode> docs = render("dev");
        assertThat(workload(docs, "StatefulSet", "redis")).as("dev has a Redis StatefulSet").isPresent();
        String conf = redisConfigs(docs).stream().findFirst()
                .orElseGet(() -> fail("dev renders no ConfigMap with redis.conf"));
        assertRedisSafe("dev", conf);
    }

    @ParameterizedTest
    @ValueSource(strings = { "dev", "prod" })
    void anyRedisConfigRenderedIsSafe(String overlay) throws Exception {
        for (String conf : redisConfigs(render(overlay))) {
            assertRedisSafe(overlay, conf);
        }
    }

    private static void assertRedisSafe(String overlay, String conf) {
        assertThat(conf).as(overlay + " redis.conf").containsPattern("(?m)^appendonly yes$")
                .containsPattern("(?m)^appendfsync (everysec|always)$")
                .containsPattern("(?m)^maxmemory-policy noeviction$");
    }

    @ParameterizedTest
    @ValueSource(strings = { "dev", "prod" })
    void noSecretValueIsCommitted(String overlay) throws Exception {
        for (JsonNode doc : render(overlay)) {
            if ("Secret".equals(doc.path("kind").asText())) {
                assertOnlyPlaceholders(overlay + " Secret " + doc.at("/metadata/name").asText(), doc);
            }
            if ("ConfigMap".equals(doc.path("kind").asText())) {
                doc.path("data").fieldNames().forEachRemaining(key -> assertThat(key.toUpperCase())
                        .as(overlay + " ConfigMap " + doc.at("/metadata/name").asText() + " holds no secret")
                        .doesNotContain("PASSWORD").doesNotContain("API_KEY").doesNotContain("PRIVATE"));
            }
        }
    }

    @Test
    void secretTemplatesHoldOnlyPlaceholders() throws IOException {
        List<Path> templates;
        try (Stream<Path> files = Files.list(root.resolve("k8s/secrets"))) {
            templates = files.filter(p -> p.toString().endsWith(".yaml")).toList();
        }
        assertThat(templates).isNotEmpty();
        for (Path template : templates) {
            for (JsonNode doc : parse(Files.readString(template))) {
                assertThat(doc.path("kind").asText()).isEqualTo("Secret");
                assertOnlyPlaceholders(template.getFileName().toString(), doc);
            }
        }
    }

    private static void assertOnlyPlaceholders(String where, JsonNode secret) {
        assertThat(secret.path("data").size()).as(where + " has no base64 data").isZero();
        secret.path("stringData").fields().forEachRemaining(e -> assertThat(e.getValue().asText())
                .as(where + " " + e.getKey() + " is a placeholder").matches(PLACEHOLDER));
    }

    /**
     * (HPA maxReplicas + rollout maxSurge) x pool + migration pool <= max_connections - reserved, with
     * max_connections from the in-cluster Postgres' arguments or, for a managed one, the Deployment's
     * mnemos.dev/postgres-max-connections annotation.
     */
    @ParameterizedTest
    @ValueSource(strings = { "dev", "prod" })
    void connectionPoolsFitPostgres(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        JsonNode deployment = workload(docs, "Deployment", "mnemos").orElseThrow();
        JsonNode hpa = find(docs, "HorizontalPodAutoscaler", "mnemos").orElseThrow();
        JsonNode config = find(docs, "ConfigMap", "mnemos-config").orElseThrow();
        assertThat(hpa.at("/spec/scaleTargetRef/name").asText()).isEqualTo("mnemos");

        int maxReplicas = hpa.at("/spec/maxReplicas").asInt();
        int surge = deployment.at("/spec/strategy/rollingUpdate/maxSurge").isInt()
                ? deployment.at("/spec/strategy/rollingUpdate/maxSurge").asInt()
                : fail(overlay + ": maxSurge must be an absolute number to size the pools");
        int pool = Integer.parseInt(config.at("/data/QUARKUS_DATASOURCE_JDBC_MAX_SIZE").asText());
        int migrationPool = 0;
        for (JsonNode init : deployment.at("/spec/template/spec/initContainers")) {
            migrationPool += Integer.parseInt(env(init, "QUARKUS_DATASOURCE_JDBC_MAX_SIZE").orElse(String.valueOf(pool)));
        }

        Optional<JsonNode> postgres = workload(docs, "StatefulSet", "postgres");
        int maxConnections;
        int reserved = DEFAULT_RESERVED;
        if (postgres.isPresent()) {
            String args = String.join(" ", texts(postgres.get().at("/spec/template/spec/containers/0/args")));
            maxConnections = setting(args, "max_connections")
                    .orElseGet(() -> fail(overlay + ": the Postgres StatefulSet must set -c max_connections"));
            reserved = setting(args, "superuser_reserved_connections").orElse(DEFAULT_RESERVED);
        } else {
            String annotated = deployment.at("/metadata/annotations/mnemos.dev~1postgres-max-connections").asText("");
            assertThat(annotated).as(overlay + ": managed Postgres' max_connections annotation on the Deployment").isNotBlank();
            maxConnections = Integer.parseInt(annotated);
        }
        int peak = (maxReplicas + surge) * pool + migrationPool;
        assertThat(peak).as("%s: (maxReplicas %d + maxSurge %d) x pool %d + migration %d <= max_connections %d - reserved %d",
                overlay, maxReplicas, surge, pool, migrationPool, maxConnections, reserved)
                .isLessThanOrEqualTo(maxConnections - reserved);
    }

    @ParameterizedTest
    @ValueSource(strings = { "dev", "prod" })
    void serverRunsAsTheAppRoleAndIsReadyOnRedisOnly(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        JsonNode config = find(docs, "ConfigMap", "mnemos-config").orElseThrow();
        assertThat(config.at("/data/QUARKUS_DATASOURCE_USERNAME").asText()).isEqualTo("mnemos_app");
        assertThat(config.at("/data/QUARKUS_MNEMOS_MIGRATION_MIGRATE_AT_START").asText()).isEqualTo("false");
        JsonNode server = workload(docs, "Deployment", "mnemos").orElseThrow().at("/spec/template/spec/containers/0");
        assertThat(server.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/q/health/ready");
        // /q/health/ready has no Postgres check only because the server's configuration says so.
        String properties = Files.readString(root.resolve("server/src/main/resources/application.properties"));
        assertThat(properties).containsPattern("(?m)^quarkus\\.datasource\\.health\\.enabled=false$");
        if (overlay.equals("prod")) {
            assertThat(config.at("/data/_PROD_QUARKUS_SWAGGER_UI_ENABLED").asText("false")).isEqualTo("false");
        }
    }

    // ---- helpers --------------------------------------------------------------------------------

    private static final Map<String, List<JsonNode>> RENDERED = new ConcurrentHashMap<>();

    private static List<JsonNode> render(String overlay) throws Exception {
        List<JsonNode> cached = RENDERED.get(overlay);
        if (cached != null) {
            return cached;
        }
        assumeTrue(kubectlAvailable(), "kubectl is not on the PATH: install it (the manifests are rendered with "
                + "'kubectl kustomize', offline) to run KustomizeManifestsTest");
        Process process = new ProcessBuilder("kubectl", "kustomize", root.resolve("k8s/overlays").resolve(overlay).toString())
                .redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as("kubectl kustomize k8s/overlays/" + overlay + ":\n" + out).isZero();
        List<JsonNode> docs = parse(out);
        RENDERED.put(overlay, docs);
        return docs;
    }

    private static boolean kubectlAvailable() {
        try {
            Process p = new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static List<JsonNode> parse(String yaml) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(yaml)) {
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    docs.add(doc);
                }
            }
        }
        return docs;
    }

    private static Optional<JsonNode> find(List<JsonNode> docs, String kind, String name) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asText()) && name.equals(d.at("/metadata/name").asText()))
                .findFirst();
    }

    private static Optional<JsonNode> workload(List<JsonNode> docs, String kind, String name) {
        return find(docs, kind, name);
    }

    private static List<String> redisConfigs(List<JsonNode> docs) {
        return docs.stream().filter(d -> "ConfigMap".equals(d.path("kind").asText()) && d.at("/data/redis.conf").isTextual())
                .map(d -> d.at("/data/redis.conf").asText()).toList();
    }

    private static Optional<String> env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (name.equals(e.path("name").asText()) && e.has("value")) {
                return Optional.of(e.path("value").asText());
            }
        }
        return Optional.empty();
    }

    private static Optional<Integer> setting(String args, String name) {
        Matcher m = Pattern.compile("\\b" + name + "=(\\d+)").matcher(args);
        return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
