package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.sortedset.ScoreRange;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The index of ends not yet archived, which the end sweep reads instead of {@code SCAN}: on Redis Cluster the
 * client sends a {@code SCAN} to one node, so a sweep saw only that node's sessions. An end adds its session
 * ({@link #began}) before it marks the session ENDED, and the session leaves the index once its keys are cleared
 * ({@link #finished}); a process that dies in between leaves the entry for the sweep. The index is
 * {@link SessionKeys#UNFINISHED_END_BUCKETS} sorted sets with distinct hash tags ({@link SessionKeys#unfinishedEnds}),
 * so the entries spread over the masters of a Cluster instead of one slot holding them all. It holds session ids
 * only, never a user id.
 */
public final class RedisUnfinishedEnds {

    private final RedisDataSource redis;

    public RedisUnfinishedEnds(RedisDataSource redis) {
        this.redis = redis;
    }

    /**
     * Records that the session's end begins now. It replaces the time of an earlier entry (an end that failed),
     * so the sweep's grace period counts from this end.
     */
    void began(String sessionId, Instant at) {
        redis.sortedSet(String.class).zadd(SessionKeys.unfinishedEndsOf(sessionId), at.toEpochMilli(), sessionId);
    }

    /** The session's keys are cleared (archived and retired, deleted, or erased): nothing is left to finish. */
    public void finished(String sessionId) {
        redis.sortedSet(String.class).zrem(SessionKeys.unfinishedEndsOf(sessionId), sessionId);
    }

    /** The sessions of every bucket whose end began before {@code before}, oldest first within a bucket. */
    public List<String> before(Instant before) {
        List<String> sessions = new ArrayList<>();
        ScoreRange<Double> range = new ScoreRange<>(0d, true, (double) before.toEpochMilli(), false);
        for (int bucket = 0; bucket < SessionKeys.UNFINISHED_END_BUCKETS; bucket++) {
            sessions.addAll(redis.sortedSet(String.class).zrangebyscore(SessionKeys.unfinishedEnds(bucket), range));
        }
        return sessions;
    }
}
