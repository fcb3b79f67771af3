package dev.mnemos.session;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

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
}
