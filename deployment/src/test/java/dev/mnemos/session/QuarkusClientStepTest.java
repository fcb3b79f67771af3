package dev.mnemos.session;

import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Steps, version reads and forks go through the Quarkus Redis client, the application's own, with the default
 * settings: Mnemos opens no connection of its own (the path a Redis Cluster takes too, see RedisClusterSessionTest).
 */
class QuarkusClientStepTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(
                    jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class))
            .withConfigurationResource("mnemos-test.properties");

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    SessionStore store;

    @Test
    void stepsUseTheQuarkusClient() {
        model.reset();
        model.script(request -> "through the client");
        String id = "off-" + SessionIds.newId();
        assertThat(ai.chat(id, "hello")).isEqualTo("through the client");
        assertThat(ai.chat(id, "again")).isEqualTo("through the client");
        SessionState state = store.get(id);
        assertThat(state.version()).isEqualTo(3);
        assertThat(state.collected()).containsEntry("answer.chat", "through the client");
        assertThat(given().get("/q/metrics").then().statusCode(200).extract().asString())
                .doesNotContain("mnemos_step_connections");
        // history and forks take the Quarkus client too
        assertThat(store.at(id, 2).collected()).containsEntry("answer.chat", "through the client");
        SessionState fork = store.fork(Fork.of(id, 2).by("test"));
        assertThat(fork.forkedFrom().sessionId()).isEqualTo(id);
        assertThat(store.get(fork.sessionId()).collected()).containsEntry("answer.chat", "through the client");
        assertThat(store.liveSessions(state.userId())).contains(id, fork.sessionId());
    }
}
