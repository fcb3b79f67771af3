package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.keys.KeyScanArgs;

import java.time.Instant;

/**
 * Finds the sessions a crash left ENDED before ends were indexed ({@link RedisUnfinishedEnds}) and indexes them, so
 * the end sweep finishes them too: one {@code SCAN} over the state keys, which the end sweep runs once per process.
 * Only where a {@code SCAN} sees every key: on Redis Cluster the client sends it to one node, so there it does
 * nothing, and docs/upgrading.md says how such sessions are finished.
 */
public final class EndedBeforeTheIndex {

    private static final String PREFIX = "mnemos:{s:";
    private static final String SUFFIX = "}:state";

    private final RedisDataSource redis;

    public EndedBeforeTheIndex(RedisDataSource redis) {
        this.redis = redis;
    }

    /** @return how many ENDED sessions it indexed, or -1 on a Cluster, where it does not look */
    public int index() {
        if (redis.execute("INFO", "cluster").toString().contains("cluster_enabled:1")) {
            return -1;
        }
        RedisUnfinishedEnds ends = new RedisUnfinishedEnds(redis);
        int indexed = 0;
        for (String key : redis.key().scan(new KeyScanArgs().match(PREFIX + "*" + SUFFIX).count(500)).toIterable()) {
            var fields = redis.hash(String.class).hmget(key, "status", "updatedAt");
            String updated = fields.get("updatedAt");
            if (SessionState.Status.ENDED.name().equals(fields.get("status")) && updated != null) {
                String sessionId = key.substring(PREFIX.length(), key.length() - SUFFIX.length());
                ends.began(sessionId, Instant.ofEpochMilli(Long.parseLong(updated)));
                indexed++;
            }
        }
        return indexed;
    }
}
