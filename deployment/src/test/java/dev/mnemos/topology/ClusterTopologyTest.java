package dev.mnemos.topology;

import dev.mnemos.session.TestRedisCluster;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Redis Cluster of three masters, where every script of a session runs on the node of its one slot. Steps, a fork, a rollback
 * and an end with Mnemos' default settings.
 */
class ClusterTopologyTest {

    static final TestRedisCluster REDIS = new TestRedisCluster();

    @RegisterExtension
    static final QuarkusUnitTest APP = TopologyApp.against(REDIS::start, REDIS::stop, TestRedisCluster.class);

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
