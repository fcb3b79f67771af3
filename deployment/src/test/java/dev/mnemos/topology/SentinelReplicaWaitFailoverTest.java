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
 * A Sentinel-managed master with two replicas killed with {@code kill -9} under 64 clients, with
 * {@code quarkus.mnemos.session.replica-wait.replicas=1}: a step is acknowledged only once a replica has it, so the
 * Sentinel's promotion of either replica loses no acknowledged step. The other replica is re-pointed at the new master
 * by the Sentinel, so the new master's writes are confirmed again without an operator; until then they are answered
 * "not confirmed". Prints the figures (docs/operations.md, "Redis failover").
 */
@Tag(Failover.TAG)
class SentinelReplicaWaitFailoverTest {

    static final Duration DOWN_AFTER = Duration.ofMillis(1000);
    static final SentinelRedis REDIS = new SentinelRedis(DOWN_AFTER, 2);

    @RegisterExtension
    static final QuarkusUnitTest APP = TopologyApp.against(REDIS::start, REDIS::stop, SentinelRedis.class,
            FailoverLoad.class, FailoverLoad.Result.class, FailoverLoad.Step.class, FailoverLoad.Kind.class)
            .overrideRuntimeConfigKey("quarkus.mnemos.session.replica-wait.replicas", "1")
            .overrideRuntimeConfigKey("quarkus.mnemos.session.replica-wait.timeout", "1s");

    @Inject
    SessionStore store;

    @Test
    void noAcknowledgedStepIsLostThroughTheFailover() throws InterruptedException {
        FailoverLoad load = new FailoverLoad(store, 2);
        FailoverLoad.Result result = load.run(Duration.ofMillis(1500), id -> true, SentinelRedis::killStarted,
                SentinelRedis::awaitStartedFailover, Duration.ofSeconds(30));
        result.print("Redis Sentinel failover, replica wait 1 replica / 1 s (kill -9 of the master of 2 replicas,"
                + " down-after " + DOWN_AFTER.toMillis() + " ms)");

        assertThat(result.count(FailoverLoad.Kind.ACKNOWLEDGED)).as("steps acknowledged").isGreaterThan(500);
        assertThat(result.lost()).as("acknowledged steps lost").isEmpty();
        assertThat(result.recoveryMillis()).as("ms until a step is acknowledged again").isBetween(0L, 30_000L);
        assertThat(result.count(FailoverLoad.Kind.OTHER)).as("failures other than Redis being unavailable").isZero();
    }
}
