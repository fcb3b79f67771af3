package dev.mnemos.session;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** How Mnemos reports the durability of the Redis that holds live sessions ({@link RedisDurability}). */
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
@ConfigMapping(prefix = "quarkus.mnemos.redis")
public interface RedisDurabilityConfig {

    /**
     * How start-up reports Redis settings that can lose live sessions (no append-only file, an fsync policy
     * that can drop acknowledged writes, an eviction policy): {@code warn} logs a warning, once per JVM for the
     * same settings; {@code accepted} logs them at INFO (docs/operations.md, "Redis durability check").
     */
    @WithDefault("warn")
    DurabilityCheck durabilityCheck();

    /**
     * Whether session writes go on while Redis' {@code maxmemory-policy} evicts ({@code allkeys-*},
     * {@code volatile-*}): by default they answer 503 and readiness is DOWN, since an evicted session loses
     * writes already acknowledged. {@code true} accepts that risk (a Redis used as a cache of sessions that
     * may be lost). Independent of {@link #durabilityCheck()}.
     */
    @WithDefault("false")
    boolean acceptEviction();

    /**
     * How often Redis' settings are read again in the background, so that readiness, the gauge and session writes
     * follow a policy changed at runtime ({@code CONFIG SET maxmemory-policy}) without a readiness probe; 0 turns the
     * background check off (start-up and readiness probes still check). A switch to an evicting policy stops session
     * writes at once regardless: each write script reads the policy itself.
     */
    @WithDefault("10s")
    Duration checkInterval();
}
