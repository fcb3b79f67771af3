package dev.mnemos.session;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

import java.util.List;

/**
 * The reference {@link ScriptTransport}: the Quarkus Redis client, whatever Redis it is set up for (standalone,
 * cluster, sentinel, replication, TLS). The calling thread waits for each reply the client's event loop reads
 * ({@link RedisCalls#awaited}).
 */
final class QuarkusScriptTransport implements ScriptTransport {

    private final RedisCalls calls;

    QuarkusScriptTransport(RedisCalls calls) {
        this.calls = calls;
    }

    @Override
    public long[] write(LuaScript script, List<String> keys, List<String> argv) {
        return SessionScripts.longs(calls.awaited(script.script().executeAsync(calls.reactive, keys, argv)));
    }

    @Override
    public Object read(LuaScript script, List<String> keys, List<String> argv) {
        return SessionScripts.plain(calls.awaited(script.script().executeAsync(calls.reactive, keys, argv)));
    }

    /** Both sent at once; the client sends on subscribing, which is waiting for the answer: the work goes first. */
    @Override
    public SessionScripts.Along readAlong(LuaScript script, List<String> keys, List<String> argv, String key,
            Runnable meanwhile) {
        if (meanwhile != null) {
            SessionScripts.aside(meanwhile);
        }
        Uni<Response> read = script.script().executeAsync(calls.reactive, keys, argv);
        if (key == null) {
            return new SessionScripts.Along(SessionScripts.plain(calls.awaited(read)), false, null);
        }
        // a failed GET leaves the read standing: the caller reads the key its own way
        Uni<String[]> along = calls.reactive.execute("GET", key)
                .map(r -> new String[] { r == null ? null : r.toString() })
                .onFailure().recoverWithItem((String[]) null);
        var both = calls.awaited(Uni.combine().all().unis(read, along).asTuple());
        String[] value = both.getItem2();
        return new SessionScripts.Along(SessionScripts.plain(both.getItem1()), value != null,
                value == null ? null : value[0]);
    }

    @Override
    public void zadd(String key, double score, String member) {
        calls.awaited(calls.reactive.sortedSet(String.class).zadd(key, score, member));
    }
}
