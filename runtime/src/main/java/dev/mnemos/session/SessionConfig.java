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
     * A full checkpoint of the state is kept every this many versions, so old versions load fast:
     * a past version replays at most this many minus one events. Smaller reads faster and stores
     * more (a checkpoint holds the state's fields without plan bodies, a few KB).
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
}
