package dev.mnemos.session;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.util.List;

/**
 * The Quarkus Redis client as the parts of {@link RedisSessionStore} use it beside their
 * {@link ScriptTransport}: plain commands, non-blocking calls, and the bound of each wait.
 */
final class RedisCalls {

    final RedisDataSource redis;
    final ReactiveRedisDataSource reactive;
    final SessionConfig config;
    /** Whether a write script is followed by Redis' {@code WAIT} for replicas ({@link ReplicaWait}). */
    final ReplicaWait replicaWait;

    RedisCalls(RedisDataSource redis, SessionConfig config) {
        this(redis, config, ReplicaWait.NONE);
    }

    RedisCalls(RedisDataSource redis, SessionConfig config, ReplicaWait replicaWait) {
        this.redis = redis;
        this.reactive = redis.getReactive();
        this.config = config;
        this.replicaWait = replicaWait;
    }

    /** Runs the script without blocking on the Quarkus client. */
    Uni<Response> async(LuaScript script, String id, List<String> argv) {
        return script.script().executeAsync(reactive, script.keys(id), argv);
    }

    /**
     * Runs a write script without blocking; a script that writes a session's version ({@link LuaScript#versioned()})
     * is followed by {@code WAIT} when replicas are asked for, and fails with {@link ReplicaWaitException} when it
     * wrote and too few confirmed it.
     */
    Uni<Response> write(LuaScript script, List<String> keys, List<String> argv) {
        return script.versioned() ? replicaWait.write(script.script(), reactive, keys, argv)
                : script.script().executeAsync(reactive, keys, argv);
    }

    /**
     * A non-blocking Redis call bounded by {@link SessionConfig#redisTimeout()}; Redis failures as
     * {@link SessionStoreUnavailableException}, a script's error as {@link SessionScriptException}.
     */
    <T> Uni<T> bounded(Uni<T> call) {
        return unavailable(call.ifNoItem().after(config.redisTimeout()).failWith(this::timedOut));
    }

    /**
     * Waits on the calling thread for one Redis call, at most {@link SessionConfig#redisTimeout()}; Redis
     * failures as {@link SessionStoreUnavailableException}. The calls of every step wait this way instead of
     * through a fault-tolerance guard: the Redis client is asynchronous underneath, so the wait itself can
     * be bounded, while a guard's synchronous timeout schedules a task on its timer thread for every call.
     */
    <T> T awaited(Uni<T> call) {
        try {
            return unavailable(call).await().atMost(config.redisTimeout());
        } catch (io.smallrye.mutiny.TimeoutException e) {
            throw timedOut();
        }
    }

    private <T> Uni<T> unavailable(Uni<T> call) {
        // Mnemos' own outcomes (a write no replica confirmed) pass as they are
        return call.onFailure(e -> !(e instanceof TimeoutException) && !(e instanceof SessionStoreUnavailableException))
                .transform(e -> SessionScriptException.of("Redis did not answer: " + e.getMessage(), e));
    }

    private TimeoutException timedOut() {
        return new TimeoutException(
                "mnemos session store: no answer from Redis within " + config.redisTimeout().toMillis() + " ms");
    }
}
