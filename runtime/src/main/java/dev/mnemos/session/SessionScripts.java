package dev.mnemos.session;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * A Lua script run by its SHA in one round trip; reloaded when Redis lost it (restart, SCRIPT FLUSH).
 * Every session script is prefixed with {@code session-common.lua}, the helpers they share.
 */
public final class SessionScripts {

    private final String source;
    private volatile String sha;

    private SessionScripts(String source) {
        this.source = source;
    }

    static SessionScripts load(String resource) {
        return new SessionScripts(text("session-common.lua") + text(resource));
    }

    /** A script resource without the session helpers (for keys outside a session's slot). */
    static SessionScripts standalone(String resource) {
        return new SessionScripts(text(resource));
    }

    /** A script of its own (no shared helpers), for other stores of a session's keys. */
    public static SessionScripts of(String source) {
        return new SessionScripts(source);
    }

    private static String text(String resource) {
        try (InputStream in = SessionScripts.class.getResourceAsStream("/lua/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("missing script /lua/" + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A reply of field, value, field, value … as a map (a field whose value is nil is left out). */
    static Map<String, String> pairs(Response flat) {
        return pairs(flat.size(), flat::get);
    }

    /** The {@code size} items {@code at} gives, read as field, value, field, value …; nil values left out. */
    private static Map<String, String> pairs(int size, IntFunction<Object> at) {
        Map<String, String> map = new HashMap<>(size);
        for (int i = 0; i + 1 < size; i += 2) {
            Object value = at.apply(i + 1);
            if (value != null) {
                map.put(at.apply(i).toString(), value.toString());
            }
        }
        return map;
    }

    /** Runs the script; the reply as Redis sent it. */
    public Response execute(RedisDataSource redis, List<String> keys, List<String> args) {
        List<String> call = call(keys, args);
        if (sha == null) {
            sha = redis.execute("SCRIPT", "LOAD", source).toString();
        }
        try {
            call.set(0, sha);
            return redis.execute("EVALSHA", call.toArray(String[]::new));
        } catch (RuntimeException e) {
            if (!noScript(e)) {
                throw e;
            }
            // EVAL is routed by key, so on Redis Cluster it loads the script on the node that owns
            // the session's slot (SCRIPT LOAD, having no key, may land on any node)
            call.set(0, source);
            return redis.execute("EVAL", call.toArray(String[]::new));
        }
    }

    /**
     * Runs the script without blocking (for callers on an event loop); loads it first when its SHA is
     * not known yet, and sends its source when Redis lost it.
     */
    public Uni<Response> executeAsync(ReactiveRedisDataSource redis, List<String> keys, List<String> args) {
        List<String> call = call(keys, args);
        Uni<String> known = sha != null ? Uni.createFrom().item(sha)
                : redis.execute("SCRIPT", "LOAD", source).map(loaded -> sha = loaded.toString());
        return known.chain(current -> {
            call.set(0, current);
            return redis.execute("EVALSHA", call.toArray(String[]::new));
        }).onFailure(SessionScripts::noScript).recoverWithUni(e -> {
            List<String> eval = new ArrayList<>(call);
            eval.set(0, source);
            return redis.execute("EVAL", eval.toArray(String[]::new));
        });
    }

    /**
     * Runs the script then {@code after} in one batch: one node, one connection (on a Cluster, the master of the keys'
     * slot, as {@code after} has no key). Loads the script first when its SHA is not known yet, and sends its source
     * when Redis lost it. @return the script's reply, then {@code after}'s
     */
    public Uni<List<Response>> executeAsync(ReactiveRedisDataSource redis, List<String> keys, List<String> args,
            Request after) {
        List<String> call = call(keys, args);
        Uni<String> known = sha != null ? Uni.createFrom().item(sha)
                : redis.execute("SCRIPT", "LOAD", source).map(loaded -> sha = loaded.toString());
        return known.chain(current -> batch(redis, Command.EVALSHA, current, call, after))
                .onFailure(SessionScripts::noScript).recoverWithUni(e -> batch(redis, Command.EVAL, source, call, after));
    }

    private static Uni<List<Response>> batch(ReactiveRedisDataSource redis, Command command, String script,
            List<String> call, Request after) {
        Request run = Request.cmd(command).arg(script);
        for (int i = 1; i < call.size(); i++) {
            run.arg(call.get(i));
        }
        return redis.getRedis().batch(List.of(run, after));
    }

    /** The arguments of EVALSHA/EVAL after the script (left null at index 0): key count, keys, arguments. */
    private static List<String> call(List<String> keys, List<String> args) {
        List<String> call = new ArrayList<>(keys.size() + args.size() + 2);
        call.add(null);
        call.add(Integer.toString(keys.size()));
        call.addAll(keys);
        call.addAll(args);
        return call;
    }

    /** Redis no longer holds the script (restarted, flushed, or another cluster node): send its source. */
    private static boolean noScript(Throwable e) {
        return e.getMessage() != null && e.getMessage().contains("NOSCRIPT");
    }

    /** A reply as plain Java values: a List, a String, a Long, or null. */
    static Object plain(Response reply) {
        if (reply == null) {
            return null;
        }
        return switch (reply.type()) {
            case MULTI, PUSH -> {
                List<Object> items = new ArrayList<>(reply.size());
                for (Response item : reply) {
                    items.add(plain(item));
                }
                yield items;
            }
            case NUMBER -> reply.toLong();
            default -> reply.toString();
        };
    }

    /** {@link #pairs(Response)} of a reply in plain values ({@link #plain}). */
    static Map<String, String> plainPairs(Object reply) {
        List<?> flat = (List<?>) reply;
        return pairs(flat.size(), flat::get);
    }

    /** {@link #longs(Response)} of a reply in plain values ({@link #plain}). */
    static long[] plainLongs(Object reply) {
        List<?> list = (List<?>) reply;
        long[] values = new long[list.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = ((Number) list.get(i)).longValue();
        }
        return values;
    }

    static long[] longs(Response reply) {
        long[] values = new long[reply.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = reply.get(i).toLong();
        }
        return values;
    }
}
