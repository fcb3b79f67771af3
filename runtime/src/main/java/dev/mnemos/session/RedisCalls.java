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

    RedisCalls(RedisDataSource redis, SessionConfig config) {
        this.redis = redis;
        this.reactive = redis.getReactive();
        this.config = config;
    }

    /** Runs the script without blocking on the Quarkus client. */
    Uni<Response> async(LuaScript script, String id, List<String> argv) {
        return script.script().executeAsync(reactive, script.keys(id), argv);
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
        return call.onFailure(e -> !(e instanceof TimeoutException))
                .transform(e -> SessionScriptException.of("Redis did not answer: " + e.getMessage(), e));
    }

    private TimeoutException timedOut() {
        return new TimeoutException(
                "mnemos session store: no answer from Redis within " + config.redisTimeout().toMillis() + " ms");
    }
}
