package dev.mnemos.session;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Session memory settings. */
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
@ConfigMapping(prefix = "quarkus.mnemos.session")
public interface SessionConfig {

    /** Time to live of every key of a session; refreshed on each write. */
    @WithDefault("24h")
    Duration ttl();

    /** How many most recent versions of a session can be read back, rolled back to or forked from. */
    @WithDefault("500")
    int historyRetention();

    /**
     * The checkpoint interval: at every multiple of it a session may keep a copy of its state's fields
     * (plan bodies by reference), taken when it costs at most a third of the bytes written since the previous
     * one, so that reading, forking or rolling back to an old version applies the undo records from the
     * nearest checkpoint above it, not from the current version. Sessions written by Mnemos before undo
     * records are rebuilt from their full checkpoint every this many versions until the retention window
     * has moved past them.
     */
    @WithDefault("25")
    int checkpointEvery();

    /** Longest goal, context, summary, constraint, question, observation or collected value, in characters. */
    @WithDefault("10000")
    int maxTextChars();

    /** Longest plan version, in characters. */
    @WithDefault("50000")
    int maxPlanChars();

    /** Most items a single patch may add or remove per list or map. */
    @WithDefault("200")
    int maxItemsPerPatch();

    /**
     * Longest wait for a single-version Redis call (create, read, write, end, delete, list); a slower
     * call fails with a timeout (503 at the API) and the step's model is not called.
     */
    @WithDefault("3s")
    Duration redisTimeout();

    /** Longest wait for a call that replays history (read at a version, events, rollback, fork). */
    @WithDefault("5s")
    Duration slowRedisTimeout();

    /**
     * Most live sessions one user may have; creating or forking beyond it answers 429 and writes
     * nothing. Keeps a user's session list, and the work of listing it, bounded.
     */
    @WithDefault("1000")
    int maxLivePerUser();

    /**
     * Largest a session's state may grow, in bytes of field names and values: its fields and every
     * plan version it stored (history not included). A write that would pass it answers 413 and
     * writes nothing; a write that shrinks the state is always accepted.
     */
    @WithDefault("1048576")
    long maxSessionBytes();

    /**
     * Bytes one user's live sessions may hold together, history included (states, plan versions,
     * replay entries, undo records, traces, idempotency records), in bytes of field names and values;
     * 0: no budget. Sessions reserve it in steps of 16 KiB as they grow; a write or a new session
     * beyond it answers 429 and writes nothing.
     */
    @WithDefault("268435456")
    long maxUserBytes();

    /** Mnemos' own blocking Redis connections for the calls every step makes ({@link StepConnections}). */
    StepPool stepPool();

    interface StepPool {

        /**
         * Whether the step's session read, its write and the profile revision's check go over a pool of
         * blocking connections that Mnemos opens to the Redis of {@code quarkus.redis.hosts}, instead of
         * through the Quarkus Redis client (whose event loop each call is handed to and answered from).
         * Used only for one standalone Redis named by a {@code redis://} or {@code rediss://} URL (TLS
         * with the JVM's default trust store, no {@code quarkus.tls.*} or {@code quarkus.redis.tls*}
         * settings, no proxy); any other set-up is refused at boot, with a message: set {@code false} there.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * Most connections of the pool; a step finding none free waits for one up to
         * {@code redis-timeout}. Size it to the number of steps that run at once.
         */
        @WithDefault("64")
        int maxSize();

        /**
         * The name the pool's connections give themselves ({@code CLIENT SETNAME}), as {@code CLIENT LIST}
         * shows them: give each application its own to tell its connections apart on a shared Redis.
         */
        @WithDefault("mnemos-step")
        String clientName();
    }
}
