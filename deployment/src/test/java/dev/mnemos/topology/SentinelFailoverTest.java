package dev.mnemos.topology;

import dev.mnemos.session.SessionStore;
import dev.mnemos.support.Failover;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Sentinel-managed master killed with {@code kill -9} under 64 clients, with Mnemos' default settings (no replica
 * wait): the Sentinel promotes the replica, and the application, which asks the Sentinel where the master is, follows
 * it without a restart. Asserts that, and that only steps acknowledged in the last moments before the kill are lost;
 * prints the figures (docs/operations.md, "Redis failover").
 */
@Tag(Failover.TAG)
class SentinelFailoverTest {

    static final Duration DOWN_AFTER = Duration.ofMillis(1000);
    static final SentinelRedis REDIS = new SentinelRedis(DOWN_AFTER);

    @RegisterExtension
    static final QuarkusUnitTest APP = TopologyApp.against(REDIS::start, REDIS::stop, SentinelRedis.class,
            FailoverLoad.class, FailoverLoad.Result.class, FailoverLoad.Step.class, FailoverLoad.Kind.class);

    @Inject
    SessionStore store;

    @Test
    void theApplicationFollowsThePromotedReplica() throws InterruptedException {
        FailoverLoad load = new FailoverLoad(store, 2);
        FailoverLoad.Result result = load.run(Duration.ofMillis(1500), id -> true, SentinelRedis::killStarted,
                SentinelRedis::awaitStartedFailover, Duration.ofSeconds(20));
        result.print("Redis Sentinel failover, no replica wait (kill -9 of the master, down-after "
                + DOWN_AFTER.toMillis() + " ms)");

        assertThat(result.count(FailoverLoad.Kind.ACKNOWLEDGED)).as("steps acknowledged").isGreaterThan(1000);
        assertThat(result.lostAges()).as("the age at the kill of every lost step, ms: the replication lag")
                .allMatch(age -> age < DOWN_AFTER.toMillis());
        assertThat(result.recoveryMillis()).as("ms until a step is acknowledged again").isBetween(0L, 20_000L);
        assertThat(result.count(FailoverLoad.Kind.OTHER)).as("failures other than Redis being unavailable").isZero();
    }
}
