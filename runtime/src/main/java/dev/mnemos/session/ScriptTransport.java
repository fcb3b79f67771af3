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

    /** What {@link #readAndGet} answers: the script's reply and the string at the key (null: none). */
    record ReadAndGet(Object reply, String value) {
    }

    /**
     * {@link #read} and {@link #get} of an unrelated key, in one round trip where the transport can send both
     * at once; this default sends one after the other.
     */
    default ReadAndGet readAndGet(LuaScript script, List<String> keys, List<String> argv, String key) {
        return new ReadAndGet(read(script, keys, argv), get(key));
    }

    /**
     * {@link #readAndGet} in two halves: sent now, its replies read by {@link Sent#reply}, where the transport can
     * write commands before reading replies; this default sends both when the reply is asked for.
     */
    default Sent<ReadAndGet> sendReadAndGet(LuaScript script, List<String> keys, List<String> argv, String key) {
        return () -> readAndGet(script, keys, argv, key);
    }
}
