package dev.mnemos.session;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.util.List;

/**
 * How the parts of {@link RedisSessionStore} reach Redis: the Quarkus client, the step's own connections
 * ({@link StepConnections}) for blocking scripts when they are used, and the bounds of each call.
 */
final class RedisCalls {

    final RedisDataSource redis;
    final ReactiveRedisDataSource reactive;
    final StepConnections direct;
    final SessionConfig config;

    RedisCalls(RedisDataSource redis, StepConnections direct, SessionConfig config) {
        this.redis = redis;
        this.reactive = redis.getReactive();
        this.direct = direct;
        this.config = config;
    }

    /**
     * Runs a script that answers integers and may write (so it is not sent twice), blocking: over the
     * step's connections when they are used.
     *
     * @param id the session (a session script) or the user (a user script) the script's keys are of
     */
    long[] longs(LuaScript script, String id, ScriptArgs args) {
        List<String> keys = script.keys(id);
        List<String> argv = args.argv();
        return direct.enabled() ? SessionScripts.plainLongs(direct.eval(script.script(), keys, argv, false))
                : script.script().run(redis, keys, argv);
    }

    /** Runs the script without blocking on the Quarkus client. */
    Uni<io.vertx.mutiny.redis.client.Response> async(LuaScript script, String id, List<String> argv) {
        return script.script().executeAsync(reactive, script.keys(id), argv);
    }

    /**
     * A non-blocking Redis call bounded by {@link SessionConfig#redisTimeout()}; Redis failures as
     * {@link SessionStoreUnavailableException}.
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
        return call.onFailure(e -> !(e instanceof TimeoutException))
                .transform(e -> new SessionStoreUnavailableException("Redis did not answer: " + e.getMessage(), e));
    }

    private TimeoutException timedOut() {
        return new TimeoutException(
                "mnemos session store: no answer from Redis within " + config.redisTimeout().toMillis() + " ms");
    }
}
