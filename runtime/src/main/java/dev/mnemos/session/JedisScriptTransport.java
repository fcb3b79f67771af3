package dev.mnemos.session;

import java.util.List;

/**
 * The faster {@link ScriptTransport}: Mnemos' own blocking connections ({@link StepConnections}), on which the
 * calling thread writes each command and reads its reply itself, with no event-loop hand-off. Only for the
 * Redis set-ups the pool reaches as the Quarkus client does; any other is refused at boot
 * ({@link ScriptTransports}).
 */
final class JedisScriptTransport implements ScriptTransport {

    private final StepConnections connections;

    JedisScriptTransport(StepConnections connections) {
        this.connections = connections;
    }

    @Override
    public long[] write(LuaScript script, List<String> keys, List<String> argv) {
        return SessionScripts.plainLongs(connections.eval(script.script(), keys, argv, false));
    }

    @Override
    public Object read(LuaScript script, List<String> keys, List<String> argv) {
        return connections.eval(script.script(), keys, argv, true);
    }

    @Override
    public ReadAndGet readAndGet(LuaScript script, List<String> keys, List<String> argv, String key) {
        return connections.evalAndGet(script.script(), keys, argv, key);
    }

    @Override
    public Sent<ReadAndGet> sendReadAndGet(LuaScript script, List<String> keys, List<String> argv, String key) {
        return connections.sendEvalAndGet(script.script(), keys, argv, key);
    }

    @Override
    public String get(String key) {
        return connections.get(key).orElse(null);
    }

    @Override
    public void zadd(String key, double score, String member) {
        connections.zadd(key, score, member);
    }
}
