package dev.mnemos.session;

import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The step's calls go over Mnemos' own blocking connections ({@link StepConnections}), here a pool of
 * two, shared by more concurrent writers than it has connections.
 */
class StepConnectionsUseTest {

    static final int WRITERS = 12;
    static final int WRITES = 20;

    /**
     * This application's own client name: other processes on the shared Redis use the default one. Kept in a
     * system property because QuarkusUnitTest loads this class twice (JUnit's class loader configures the
     * application, Quarkus' runs the tests), and both must see one name.
     */
    static final String CLIENT_NAME = (String) System.getProperties().computeIfAbsent("mnemos.test.step-client-name",
            key -> "mnemos-step-" + SessionIds.newId());

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(
                    jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class))
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.session.step-pool.max-size", "2")
            .overrideConfigKey("quarkus.mnemos.session.step-pool.client-name", CLIENT_NAME);

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    SessionStore store;
    @Inject
    StepConnections connections;
    @Inject
    RedisDataSource redis;

    /** This application's step-pool clients Redis sees now, by id, with the last command each ran. */
    private List<String> stepClients() {
        return Arrays.stream(redis.execute("CLIENT", "LIST").toString().split("\n"))
                .filter(line -> line.contains(" name=" + CLIENT_NAME + " ")).toList();
    }

    @Test
    void itsGaugesExistFromBoot() {
        // read before this test touches the bean: @Startup made it, and its meters, at boot
        assertThat(given().get("/q/metrics").then().statusCode(200).extract().asString())
                .containsPattern("mnemos_step_connections\\{[^}]*state=\"waiting\"[^}]*\\} 0\\.0");
    }

    @Test
    void anAiServiceStepReadsAndWritesOverTheStepConnections() {
        assertThat(connections.enabled()).isTrue();
        model.reset();
        model.script(request -> "over the pool");
        String id = "pool-" + SessionIds.newId();
        assertThat(ai.chat(id, "hello")).isEqualTo("over the pool");
        assertThat(store.get(id).collected()).containsEntry("answer.chat", "over the pool");
        List<String> clients = stepClients();
        assertThat(clients).as("at most the pool's size").isNotEmpty().hasSizeLessThanOrEqualTo(2);
        assertThat(clients).as("the step's scripts ran on them")
                .anySatisfy(client -> assertThat(client).containsAnyOf("cmd=evalsha", "cmd=get"));
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).containsPattern("mnemos_step_connections\\{[^}]*state=\"idle\"[^}]*\\} [12]\\.0")
                .containsPattern("mnemos_step_connections\\{[^}]*state=\"active\"[^}]*\\} 0\\.0");
    }

    @Test
    void aReadOfAKnownVersionAnswersTheKnownState() {
        String id = store
                .create(NewSession.of("pool-user", SessionPatch.builder().goal("read what is known").build()).by("test"))
                .sessionId();
        SessionState plain = store.recent(id, 3);
        assertThat(store.recentIfChanged(id, 3, plain)).as("still at the known version: the known state").isSameAs(plain);
        assertThat(store.recentIfChanged(id, 3, null)).isEqualTo(plain).isNotSameAs(plain);
    }

    @Test
    void moreConcurrentWritersThanConnectionsWaitForOneAndNoWriteIsLost() throws Exception {
        String id = store
                .create(NewSession.of("pool-user", SessionPatch.builder().goal("share two connections").build()).by("test"))
                .sessionId();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<List<Long>>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    List<Long> versions = new ArrayList<>();
                    for (int i = 0; i < WRITES; i++) {
                        versions.add(store.apply(
                                StepWrite.of(id, SessionPatch.builder().putCollected("w" + writer + "-" + i, "v").build())
                                        .ownedBy("pool-user").noting("write").by("test"))
                                .version());
                    }
                    return versions;
                }));
            }
            List<Long> versions = new ArrayList<>();
            for (Future<List<Long>> writer : writers) {
                versions.addAll(writer.get());
            }
            assertThat(versions).as("every write got a version of its own").doesNotHaveDuplicates()
                    .hasSize(WRITERS * WRITES);
        } finally {
            pool.shutdownNow();
        }
        SessionState state = store.get(id);
        assertThat(state.version()).isEqualTo(1 + WRITERS * WRITES);
        assertThat(state.collected()).hasSize(WRITERS * WRITES);
        assertThat(stepClients()).as("never more connections than the pool's size").hasSizeLessThanOrEqualTo(2);
    }
}
