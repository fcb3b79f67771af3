package dev.mnemos.server.instances;

import dev.mnemos.testsupport.FreePorts;
import dev.mnemos.testsupport.Tokens;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three processes of the packaged server ({@code java -jar target/quarkus-app/quarkus-run.jar}, built by
 * {@code package} before this test runs in the {@code instances} profile) against one Redis and one Postgres (the
 * machine's, a schema of the test's own), as three pods behind a load balancer (issue 49 item 5): what one instance
 * acknowledges, the others serve. Each check writes through one instance and reads through the other two, right after
 * the write was acknowledged, with no wait: a forget or a correction is never injected by another instance (the memory
 * block an MCP client reads for a session, and the profile), an {@code Idempotency-Key} is honoured whichever instance
 * the retry reaches, an MCP session lives on the instance that opened it (the others answer 404, which MCP clients
 * answer by initialising again), undo and erase are seen by all.
 */
class ThreeInstancesIT {

    static final String SCHEMA = "mnemos_instances";
    static final String DB = "jdbc:postgresql://127.0.0.1:5432/test";
    static final List<Process> PROCESSES = new ArrayList<>();
    static final List<String> BASES = new ArrayList<>();
    static Path dir;

    @BeforeAll
    static void startThree() throws Exception {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar");
        assertThat(jar).as("the packaged server (mvn package, in the instances profile before this test)").exists();
        dir = Files.createTempDirectory("mnemos-instances");
        Path key = dir.resolve("publicKey.pem");
        try (InputStream pem = ThreeInstancesIT.class.getClassLoader().getResourceAsStream(Tokens.PUBLIC_KEY)) {
            Files.copy(pem, key);
        }
        try (Connection c = DriverManager.getConnection(DB, "postgres", ""); Statement s = c.createStatement()) {
            s.execute("drop schema if exists " + SCHEMA + " cascade");
        }
        long began = System.nanoTime();
        // the first migrates the schema; the other two start beside each other once it is up
        start(jar, key, 0);
        awaitReady(0);
        start(jar, key, 1);
        start(jar, key, 2);
        awaitReady(1);
        awaitReady(2);
        System.out.printf("ThreeInstancesIT: three server processes ready in %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
    }

    @AfterAll
    static void stopThree() throws Exception {
        for (Process p : PROCESSES) {
            p.destroy();
        }
        for (Process p : PROCESSES) {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static void start(Path jar, Path key, int n) throws IOException {
        int port = FreePorts.one();
        BASES.add("http://127.0.0.1:" + port);
        PROCESSES.add(new ProcessBuilder("java", "-Xmx384m", "-XX:TieredStopAtLevel=1",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.datasource.jdbc.url=" + DB + "?currentSchema=" + SCHEMA,
                "-Dmp.jwt.verify.publickey.location=" + key,
                "-Dmp.jwt.verify.issuer=" + Tokens.ISSUER,
                // the machine's Redis is shared with other tests: no instance sweeps their sessions
                "-Dquarkus.mnemos.promotion.end-sweep-interval=0",
                // exact and normalised duplicates only: three in-process embedding models would not fit beside each other
                "-Dquarkus.mnemos.profile.embeddings=NONE",
                "-jar", jar.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("instance-" + n + ".log")
                        .toFile())
                .start());
    }

    private static void awaitReady(int n) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (true) {
            try {
                HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create(BASES.get(n) + "/q/health/ready"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (!PROCESSES.get(n).isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("instance " + n + " did not become ready; its log:\n"
                        + Files.readString(dir.resolve("instance-" + n + ".log")));
            }
            Thread.sleep(250);
        }
    }

    private static RequestSpecification on(int instance, String user) {
        return given().baseUri(BASES.get(instance)).auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    private static List<String> facts(int instance, String user) {
        return on(instance, user).get("/v1/profile").then().statusCode(200).extract().jsonPath().getList("facts.text",
                String.class);
    }

    @Test
    void aForgetOrCorrectionThroughOneIsNeverInjectedByAnother() {
        String user = "instances-" + UUID.randomUUID();
        String session = on(0, user).body(Map.of("goal", "plan a trip")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
        int jazz = on(0, user).body(Map.of("text", "Likes jazz")).post("/v1/profile/facts").then().statusCode(201)
                .extract().path("changes[0].factId");
        int seat = on(0, user).body(Map.of("category", "PREFERENCE", "slot", "seat", "text", "Prefers window seats"))
                .post("/v1/profile/facts").then().statusCode(201).extract().path("changes[0].factId");
        List<Mcp> mcp = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            mcp.add(Mcp.open(BASES.get(i), Tokens.user(user)));
            // each instance reads (and caches) the profile, and renders it into the session's memory block
            assertThat(facts(i, user)).contains("Likes jazz", "Prefers window seats");
            assertThat(mcp.get(i).memoryBlock(session)).contains("Likes jazz").contains("Prefers window seats");
        }

        on(1, user).delete("/v1/profile/facts/{id}", jazz).then().statusCode(200);
        on(2, user).body(Map.of("category", "PREFERENCE", "slot", "seat", "text", "Prefers aisle seats"))
                .put("/v1/profile/facts/{id}", seat).then().statusCode(200);
        int checks = 0;
        for (int i = 0; i < 3; i++) {
            assertThat(facts(i, user)).as("profile on instance %d", i).doesNotContain("Likes jazz", "Prefers window seats")
                    .contains("Prefers aisle seats");
            String block = mcp.get(i).memoryBlock(session);
            assertThat(block).as("memory block on instance %d", i).doesNotContain("Likes jazz")
                    .doesNotContain("Prefers window seats").contains("Prefers aisle seats");
            checks += 2;
        }
        mcp.forEach(Mcp::close);
        System.out.printf("ThreeInstancesIT: forget through 1, correction through 2: %d reads on 3 instances, none"
                + " served the forgotten or the corrected text%n", checks);
    }

    @Test
    void anIdempotencyKeyIsHonouredWhicheverInstanceTheRetryReaches() {
        String user = "instances-" + UUID.randomUUID();
        List<Integer> factIds = new ArrayList<>();
        List<String> sessions = new ArrayList<>();
        List<Long> versions = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            factIds.add(on(i, user).header("Idempotency-Key", "fact-1").body(Map.of("text", "Keeps bees"))
                    .post("/v1/profile/facts").then().statusCode(201).extract().path("changes[0].factId"));
            sessions.add(on(i, user).header("Idempotency-Key", "session-1").body(Map.of("goal", "plan a trip"))
                    .post("/v1/sessions").then().statusCode(201).extract().path("sessionId"));
        }
        for (int i = 0; i < 3; i++) {
            Response r = on(i, user).header("Idempotency-Key", "observation-1")
                    .body(Map.of("text", "Prefers trains", "kind", "PREFERENCE", "explicit", true))
                    .post("/v1/sessions/{id}/observations", sessions.get(0));
            r.then().statusCode(200);
            versions.add(r.jsonPath().getLong("version"));
        }
        assertThat(factIds).as("the fact each instance answered").containsOnly(factIds.get(0));
        assertThat(sessions).as("the session each instance answered").containsOnly(sessions.get(0));
        assertThat(versions).as("the version of the observation each instance answered").containsOnly(versions.get(0));
        assertThat(facts(1, user)).containsExactly("Keeps bees");
        List<Object> observations = on(2, user).get("/v1/sessions/{id}", sessions.get(0)).then().statusCode(200)
                .extract().jsonPath().getList("observations");
        assertThat(observations).hasSize(1);
        System.out.printf("ThreeInstancesIT: one Idempotency-Key sent to 3 instances: 1 fact %s, 1 session, 1"
                + " observation at version %s%n", factIds.get(0), versions.get(0));
    }

    @Test
    void anMcpSessionLivesOnTheInstanceThatOpenedItAndTheOthersAnswer404() throws Exception {
        String token = Tokens.user("instances-" + UUID.randomUUID());
        Mcp opened = Mcp.open(BASES.get(0), token);
        assertThat(opened.post(BASES.get(0), Mcp.list(1)).statusCode()).isEqualTo(200);
        for (int i = 1; i < 3; i++) {
            HttpResponse<String> elsewhere = opened.post(BASES.get(i), Mcp.list(2));
            System.out.printf("ThreeInstancesIT: an MCP session opened on instance 0, used on instance %d: %d %s%n", i,
                    elsewhere.statusCode(), elsewhere.body());
            assertThat(elsewhere.statusCode()).as("the MCP session on instance %d", i).isEqualTo(404);
            assertThat(elsewhere.body()).contains("another server instance opened it").contains("send initialize again");
        }
        assertThat(opened.post(BASES.get(0), Mcp.list(3)).statusCode()).as("it lives on where it was opened")
                .isEqualTo(200);
        opened.close();
    }

    @Test
    void undoAndEraseThroughOneAreSeenByAll() {
        String user = "instances-" + UUID.randomUUID();
        String session = on(0, user).body(Map.of("goal", "plan a trip")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
        on(0, user).body(Map.of("text", "From now on, answer with bullet points", "kind", "PREFERENCE", "explicit",
                true)).post("/v1/sessions/{id}/observations", session).then().statusCode(200);
        on(1, user).post("/v1/sessions/{id}/end", session).then().statusCode(200);
        for (int i = 0; i < 3; i++) {
            assertThat(facts(i, user)).as("promoted, on instance %d", i)
                    .containsExactly("From now on, answer with bullet points");
        }
        on(2, user).post("/v1/sessions/{id}/promotion/undo", session).then().statusCode(200);
        for (int i = 0; i < 3; i++) {
            assertThat(facts(i, user)).as("undone, on instance %d", i).isEmpty();
        }

        on(0, user).body(Map.of("text", "Keeps bees")).post("/v1/profile/facts").then().statusCode(201);
        on(0, user).body(Map.of("text", "Speaks Welsh")).post("/v1/profile/facts").then().statusCode(201);
        for (int i = 0; i < 3; i++) {
            assertThat(facts(i, user)).containsExactlyInAnyOrder("Keeps bees", "Speaks Welsh"); // cached on each
        }
        on(1, user).delete("/v1/me").then().statusCode(200);
        for (int i = 0; i < 3; i++) {
            assertThat(facts(i, user)).as("erased, on instance %d", i).isEmpty();
        }
        // written again one fact at a time, each read on every instance: a profile whose revisions started again
        // after the erasure would reach the revision under which the other instances cached the erased facts
        List<String> written = new ArrayList<>();
        for (String text : List.of("Likes tea", "Reads maps", "Owns a kayak", "Plays chess", "Grows tomatoes")) {
            on(1, user).body(Map.of("text", text)).post("/v1/profile/facts").then().statusCode(201);
            written.add(text);
            for (int i = 0; i < 3; i++) {
                assertThat(facts(i, user)).as("written again after the erasure, on instance %d", i)
                        .containsExactlyInAnyOrderElementsOf(written);
            }
        }
        System.out.println("ThreeInstancesIT: promotion through 1, undo through 2, erase through 1: each seen at once"
                + " by all 3 instances");
    }
}
