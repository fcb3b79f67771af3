package dev.mnemos.session;

import java.util.List;

/**
 * How the session store runs its scripts on Redis and waits for them, on the calling thread: one
 * implementation per transport, chosen once at boot ({@link ScriptTransports}). Replies are plain Java
 * values: a List, a String, a Long, or null. Every round trip waits at most
 * {@link SessionConfig#redisTimeout()}: no answer in time is MicroProfile's {@code TimeoutException}, any
 * other failure a {@link SessionStoreUnavailableException}, a script's own error a {@link SessionScriptException}.
 */
public interface ScriptTransport {

    /** Runs a script that may write: it is sent once, never repeated. @return its integer reply */
    long[] write(LuaScript script, List<String> keys, List<String> argv);

    /** {@link #write(LuaScript, List, List)} on the keys of one session or user ({@link LuaScript#keys}). */
    default long[] write(LuaScript script, String id, ScriptArgs args) {
        return write(script, script.keys(id), args.argv());
    }

    /** Runs a script that only reads (it may be sent again after meeting a broken connection). */
    Object read(LuaScript script, List<String> keys, List<String> argv);

    /** ZADD {@code key} {@code score} {@code member}. */
    void zadd(String key, double score, String member);

    /** GET {@code key}: its string, or null when there is none (a read: it may be sent again). */
    String get(String key);
}
