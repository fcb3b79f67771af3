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
}
