package dev.mnemos.session;

import java.util.ArrayList;
import java.util.List;

/**
 * The store's Lua scripts ({@code src/main/resources/lua}), each with the names of its keys and the record of
 * its arguments, in the order of the script's {@code -- KEYS:} and {@code -- ARGV:} header lines (a test
 * reads the headers against them). Keys are named by family: a session script's keys are the families of
 * one session ({@link SessionKeys}), a user script's those of one user.
 */
enum LuaScript {

    LOAD("session-load.lua", true, ScriptArgs.Load.class, "state", "plans"),
    PLANS("session-plans.lua", true, ScriptArgs.Plans.class, "state", "plans"),
    AT("session-at.lua", true, ScriptArgs.At.class, "state", "snap", "events", "plans"),
    PATCH("session-patch.lua", true, ScriptArgs.Patch.class, "state", "snap", "events", "chat", "trace", "plans",
            "idempotency"),
    REWRITE("session-rewrite.lua", true, ScriptArgs.Rewrite.class, "state", "snap", "events", "chat", "trace",
            "plans", "idempotency", "ended"),
    RETIRE("session-retire.lua", false, ScriptArgs.Retire.class, "state", "snap", "events", "chat", "trace", "plans",
            "idempotency", "ended"),
    GRANT("session-grant.lua", false, ScriptArgs.Grant.class, "state", "snap"),
    SCRUB("session-scrub.lua", false, ScriptArgs.Scrub.class, "state", "snap", "events", "chat", "trace", "plans",
            "idempotency"),
    RESERVE("user-reserve.lua", false, ScriptArgs.Reserve.class, "index"),
    BUDGET("user-bytes.lua", false, ScriptArgs.Budget.class, "bytes");

    private final String file;
    private final Class<? extends ScriptArgs> args;
    private final List<String> keyNames;
    private final SessionScripts script;

    LuaScript(String file, boolean sessionHelpers, Class<? extends ScriptArgs> args, String... keyNames) {
        this.file = file;
        this.args = args;
        this.keyNames = List.of(keyNames);
        this.script = sessionHelpers ? SessionScripts.load(file) : SessionScripts.standalone(file);
    }

    /** The script's resource name under {@code /lua/}. */
    String file() {
        return file;
    }

    /** The record of the script's arguments ({@code ARGV}). */
    Class<? extends ScriptArgs> argsType() {
        return args;
    }

    /** The names of the script's keys ({@code KEYS}), in order. */
    List<String> keyNames() {
        return keyNames;
    }

    SessionScripts script() {
        return script;
    }

    /**
     * Whether the script writes a session's version and answers it (1 or more) when it did, an error code
     * ({@link ScriptReply}) when it wrote nothing: the writes {@link ReplicaWait} waits for.
     */
    boolean versioned() {
        return this == PATCH || this == REWRITE;
    }

    /** The script's keys for one session (a session script) or one user (a user script). */
    List<String> keys(String id) {
        List<String> keys = new ArrayList<>(keyNames.size());
        for (String name : keyNames) {
            keys.add(key(name, id));
        }
        return keys;
    }

    private static String key(String family, String id) {
        return switch (family) {
            case "state" -> SessionKeys.state(id);
            case "snap" -> SessionKeys.snapshots(id);
            case "events" -> SessionKeys.events(id);
            case "chat" -> SessionKeys.chat(id);
            case "trace" -> SessionKeys.trace(id);
            case "plans" -> SessionKeys.plans(id);
            case "idempotency" -> SessionKeys.idempotency(id);
            case "ended" -> SessionKeys.ended(id);
            case "index" -> SessionKeys.userSessions(id);
            case "bytes" -> SessionKeys.userBytes(id);
            default -> throw new IllegalArgumentException("no key family " + family);
        };
    }
}
