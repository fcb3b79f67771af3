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
 * A Redis Cluster master killed with {@code kill -9} under 64 clients, with Mnemos' default settings (no replica
 * wait): Redis replicates asynchronously, so the steps its replica had not received when it died are lost. Asserts
 * what holds regardless: only the killed master's sessions lose anything, only steps acknowledged in the last moments
 * before the kill, and the application follows the promoted replica without a restart. Prints the figures
 * (docs/operations.md, "Redis failover").
 */
class ClusterFailoverTest {

    static final TestRedisCluster REDIS = ClusterFailover.cluster();

    @RegisterExtension
    static final QuarkusUnitTest APP = TopologyApp.against(REDIS::start, REDIS::stop, TestRedisCluster.class,
            TestRedisCluster.Node.class, FailoverLoad.class, FailoverLoad.Result.class,
            FailoverLoad.Step.class,
            FailoverLoad.Kind.class, ClusterFailover.class);

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;

    @Test
    void aKilledMasterLosesAtMostItsLastMomentsAndItsRangeComesBack() throws InterruptedException {
        FailoverLoad.Result result = ClusterFailover.run(store, redis, false);
        result.print("Redis Cluster failover, no replica wait (kill -9 of one of 3 masters, node timeout "
                + ClusterFailover.NODE_TIMEOUT.toMillis() + " ms)");

        assertThat(result.count(FailoverLoad.Kind.ACKNOWLEDGED)).as("steps acknowledged").isGreaterThan(1000);
        assertThat(result.lost()).as("lost steps, all of the killed master's sessions")
                .allMatch(step -> result.affected.test(step.sessionId()));
        assertThat(result.lostAges()).as("the age at the kill of every lost step, ms: the replication lag")
                .allMatch(age -> age < ClusterFailover.NODE_TIMEOUT.toMillis());
        assertThat(result.recoveryMillis()).as("ms until a step of the killed range is acknowledged again")
                .isBetween(0L, 20_000L);
        assertThat(result.count(FailoverLoad.Kind.OTHER)).as("failures other than Redis being unavailable").isZero();
    }
}
