package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * The reference {@link ScriptTransport}: the Quarkus Redis client, whatever Redis it is set up for (standalone,
 * cluster, sentinel, replication, TLS). The calling thread waits for each reply the client's event loop reads
 * ({@link RedisCalls#awaited}). A write waits for the replicas {@link ReplicaWaitConfig} asks for.
 */
@Singleton
final class QuarkusScriptTransport implements ScriptTransport {

    private final RedisCalls calls;

    @Inject
    QuarkusScriptTransport(@MnemosRedis RedisDataSource redis, SessionConfig config, ReplicaWaitConfig replicaWait) {
        this(new RedisCalls(redis, config, ReplicaWait.of(replicaWait)));
    }

    QuarkusScriptTransport(RedisCalls calls) {
        this.calls = calls;
    }

    @Override
    public long[] write(LuaScript script, List<String> keys, List<String> argv) {
        return SessionScripts.longs(calls.awaited(calls.write(script, keys, argv)));
    }

    @Override
    public Object read(LuaScript script, List<String> keys, List<String> argv) {
        return SessionScripts.plain(calls.awaited(script.script().executeAsync(calls.reactive, keys, argv)));
    }

    @Override
    public String get(String key) {
        Response reply = calls.awaited(calls.reactive.execute("GET", key));
        return reply == null ? null : reply.toString();
    }

    @Override
    public void zadd(String key, double score, String member) {
        calls.awaited(calls.reactive.sortedSet(String.class).zadd(key, score, member));
    }
}
