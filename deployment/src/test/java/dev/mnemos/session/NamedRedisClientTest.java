package dev.mnemos.session;

import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.client.RedisClientName;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code quarkus.mnemos.redis-client-name} points Mnemos at one of the application's named Quarkus Redis clients: here
 * database 5 of the test Redis, while the application's default client stays on database 0. Every key of a step lands
 * in the named client's database, none in the default client's.
 */
class NamedRedisClientTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(
                    jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class))
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.redis-client-name", "memory")
            .overrideConfigKey("quarkus.redis.memory.hosts", "redis://127.0.0.1:6379/5");

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    SessionStore store;
    @Inject
    RedisDataSource application;
    @Inject
    @RedisClientName("memory")
    RedisDataSource memory;

    @Test
    void stepsKeepTheirKeysInTheNamedClientsRedis() {
        model.reset();
        model.script(request -> "on the named client");
        String id = "named-" + SessionIds.newId();
        assertThat(ai.chat(id, "hello")).isEqualTo("on the named client");
        assertThat(store.get(id).version()).isEqualTo(2);
        String pattern = "*" + id + "*";
        assertThat(memory.key().keys(pattern)).as("the session's keys on the named client").isNotEmpty();
        assertThat(application.key().keys(pattern)).as("the session's keys on the default client").isEmpty();
        store.delete(id);
        assertThat(memory.key().keys(pattern)).isEmpty();
    }
}
