package dev.mnemos.topology;

import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Redis behind a Sentinel: the application asks the Sentinel for the master. Steps, a fork, a rollback and an end with
 * Mnemos' default settings.
 */
class SentinelTopologyTest {

    static final SentinelRedis REDIS = new SentinelRedis();

    @RegisterExtension
    static final QuarkusUnitTest APP = TopologyApp.against(REDIS::start, REDIS::stop, SentinelRedis.class);

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
