package dev.mnemos.topology;

import dev.mnemos.session.SessionStore;
import dev.mnemos.session.TestRedisCluster;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClusterFailoverTest} with {@code quarkus.mnemos.session.replica-wait.replicas=1}: every acknowledged step is
 * on a replica, so the kill loses none. The promoted replica has no replica of its own until the killed node comes back
 * (restarted here, as an orchestrator would): meanwhile its range's steps are written but answered "not confirmed".
 */
class ClusterFailoverReplicaWaitTest {

    static final TestRedisCluster REDIS = ClusterFailover.cluster();

    @RegisterExtension
    static final QuarkusUnitTest APP = TopologyApp.against(REDIS::start, REDIS::stop, TestRedisCluster.class,
            TestRedisCluster.Node.class, FailoverLoad.class, FailoverLoad.Result.class,
            FailoverLoad.Step.class,
            FailoverLoad.Kind.class, ClusterFailover.class)
            .overrideRuntimeConfigKey("quarkus.mnemos.session.replica-wait.replicas", "1")
            .overrideRuntimeConfigKey("quarkus.mnemos.session.replica-wait.timeout", "100ms");

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;

    @Test
    void noAcknowledgedStepIsLost() throws InterruptedException {
        FailoverLoad.Result result = ClusterFailover.run(store, redis, true);
        result.print("Redis Cluster failover, replica wait 1 replica / 100 ms (kill -9 of one of 3 masters, node timeout "
                + ClusterFailover.NODE_TIMEOUT.toMillis() + " ms, killed node restarted)");

        assertThat(result.count(FailoverLoad.Kind.ACKNOWLEDGED)).as("steps acknowledged").isGreaterThan(1000);
        assertThat(result.lost()).as("acknowledged steps lost").isEmpty();
        assertThat(result.recoveryMillis()).as("ms until a step of the killed range is acknowledged again")
                .isBetween(0L, 20_000L);
        assertThat(result.count(FailoverLoad.Kind.OTHER)).as("failures other than Redis being unavailable").isZero();
    }
}
