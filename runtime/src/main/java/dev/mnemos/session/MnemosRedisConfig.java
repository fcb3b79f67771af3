package dev.mnemos.session;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;

import java.util.Optional;

/** Which of the application's Redis clients Mnemos uses; fixed at build time, where Quarkus creates its clients. */
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
@ConfigMapping(prefix = "quarkus.mnemos")
public interface MnemosRedisConfig {

    /**
     * The name of the Quarkus Redis client Mnemos keeps its sessions, chat windows, traces and profile revision copies
     * in, as configured under {@code quarkus.redis.<name>.*}; unset: the default client ({@code quarkus.redis.*}).
     * Every connection setting, timeout, TLS and topology (standalone, Cluster, Sentinel, replication) is that
     * client's: Mnemos reads none of them itself.
     */
    Optional<String> redisClientName();
}
