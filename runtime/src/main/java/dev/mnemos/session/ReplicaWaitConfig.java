package dev.mnemos.session;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/**
 * Whether a session write is acknowledged only once Redis replicas hold it ({@link ReplicaWait}): Redis replicates
 * asynchronously, so a master that dies right after answering a write can lose it when a replica takes its place.
 */
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
@ConfigMapping(prefix = "quarkus.mnemos.session.replica-wait")
public interface ReplicaWaitConfig {

    /**
     * How many replicas of the session's master must hold a session write (a step, a create, a rollback, a fork, an
     * end) before it is acknowledged: Redis' {@code WAIT}, sent after the write on the same connection. 0 (the
     * default) does not wait: a failover can lose the writes of the last moments before it (docs/operations.md,
     * "Redis failover"). When fewer replicas confirm the write within {@link #timeout()}, the write stays on the
     * master but answers 503 ({@link ReplicaWaitException}).
     */
    @WithDefault("0")
    int replicas();

    /**
     * Longest wait for the replicas, counted by Redis; it adds to the write's own time within
     * {@code quarkus.mnemos.session.redis-timeout}.
     */
    @WithDefault("100ms")
    Duration timeout();
}
