package dev.mnemos.session;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

import java.time.Duration;
import java.util.List;

/**
 * Runs a session write script and, when replicas are asked for ({@link ReplicaWaitConfig}), Redis' {@code WAIT} after
 * it. Both go in one batch: the Quarkus client sends a batch to one node on one connection, the master of the keys'
 * slot on a Cluster, so {@code WAIT} counts the replicas that hold this connection's writes, the script's among them.
 * Sent on its own, {@code WAIT} has no key, and a Cluster client sends it to any node; a script cannot call it.
 */
final class ReplicaWait {

    static final ReplicaWait NONE = new ReplicaWait(0, Duration.ZERO);

    /** Writes a hash field again with its value, unless it is gone (a session cleared meanwhile is not brought back). */
    private static final String REWRITE_FIELD = "if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then"
            + " redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end return 0";

    private final int replicas;
    private final Duration timeout;

    ReplicaWait(int replicas, Duration timeout) {
        if (replicas < 0) {
            throw new IllegalArgumentException("quarkus.mnemos.session.replica-wait.replicas must be 0 or more");
        }
        this.replicas = replicas;
        this.timeout = timeout;
    }

    static ReplicaWait of(ReplicaWaitConfig config) {
        return config == null ? NONE : new ReplicaWait(config.replicas(), config.timeout());
    }

    boolean on() {
        return replicas > 0;
    }

    /**
     * The script's reply. @throws ReplicaWaitException (as the Uni's failure) when the script wrote (answered a
     * version) and fewer replicas than asked confirmed it in time
     */
    Uni<Response> write(SessionScripts script, ReactiveRedisDataSource redis, List<String> keys, List<String> argv) {
        if (!on()) {
            return script.executeAsync(redis, keys, argv);
        }
        Request wait = Request.cmd(Command.WAIT).arg(replicas).arg(Math.max(1, timeout.toMillis()));
        return script.executeAsync(redis, keys, argv, wait).map(replies -> {
            Response reply = replies.get(0);
            long confirmed = replies.get(1).toLong();
            if (confirmed < replicas && written(reply)) {
                throw new ReplicaWaitException("written on the Redis master as version " + reply.get(0).toLong(),
                        reply.get(0).toLong(), confirmed, replicas, timeout);
            }
            return reply;
        });
    }

    /**
     * Writes {@code field} of the hash {@code key} again with the value it holds, then {@code WAIT}s: a replay of an
     * idempotency record wrote nothing, so {@code WAIT} alone would count the replicas of whatever this connection last
     * wrote, and the rewrite (the same value, a write all the same) puts the record's write, and everything the master
     * wrote before it, behind the offset {@code WAIT} counts. Nothing when no replica is asked for.
     *
     * @param what names the record in the failure
     */
    Uni<Void> confirm(ReactiveRedisDataSource redis, String key, String field, String value, long version,
            String what) {
        if (!on()) {
            return Uni.createFrom().voidItem();
        }
        Request rewrite = Request.cmd(Command.EVAL).arg(REWRITE_FIELD).arg(1).arg(key).arg(field).arg(value);
        Request wait = Request.cmd(Command.WAIT).arg(replicas).arg(Math.max(1, timeout.toMillis()));
        return redis.getRedis().batch(List.of(rewrite, wait)).map(replies -> {
            long confirmed = replies.get(1).toLong();
            if (confirmed < replicas) {
                throw new ReplicaWaitException(what, version, confirmed, replicas, timeout);
            }
            return null;
        });
    }

    /** A write script answers a version (1 or more) when it wrote, an error code ({@link ScriptReply}) when not. */
    private static boolean written(Response reply) {
        return reply != null && reply.size() > 0 && reply.get(0).toLong() > 0;
    }
}
