package dev.mnemos.topology;

import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One plain Redis. Steps, a fork, a rollback and an end with Mnemos' default settings. */
class StandaloneTopologyTest {

    static final StandaloneRedis REDIS = new StandaloneRedis();

    @RegisterExtension
    static final QuarkusUnitTest APP = TopologyApp.against(REDIS::start, REDIS::stop, StandaloneRedis.class);

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    RedisDataSource redis;

    @Test
    void aSessionLivesAndEnds() {
        SessionRoundTrip.run(ai, model, redis);
    }
}
