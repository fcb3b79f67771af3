package dev.mnemos.topology;

import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Redis that takes only TLS (`rediss://`), trusted through a named Quarkus TLS configuration. Steps, a fork, a rollback and
 * an end with Mnemos' default settings.
 */
class TlsTopologyTest {

    static final TlsRedis REDIS = new TlsRedis();

    @RegisterExtension
    static final QuarkusUnitTest APP = TopologyApp.against(REDIS::start, REDIS::stop, TlsRedis.class);

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
