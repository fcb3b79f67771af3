package dev.mnemos.session;

import java.util.List;

/**
 * The Redis key layout. Every key of one session shares the hash tag {@code {s:<id>}}, so scripts
 * and transactions over them stay valid on Redis Cluster.
 */
public final class SessionKeys {

    private SessionKeys() {
    }

    public static String state(String sessionId) { return tag(sessionId) + ":state"; }
    public static String snapshots(String sessionId) { return tag(sessionId) + ":snap"; }
    public static String events(String sessionId) { return tag(sessionId) + ":events"; }
    public static String chat(String sessionId) { return tag(sessionId) + ":chat"; }
    public static String trace(String sessionId) { return tag(sessionId) + ":trace"; }
    public static String plans(String sessionId) { return tag(sessionId) + ":plans"; }

    /** The user's live sessions (a sorted set scored by creation time). */
    public static String userSessions(String userId) { return "mnemos:{u:" + userId + "}:sessions"; }

    /** Every key of the session, in the order the write scripts expect them. */
    public static List<String> all(String sessionId) {
        return List.of(state(sessionId), snapshots(sessionId), events(sessionId), chat(sessionId), trace(sessionId),
                plans(sessionId));
    }

    private static String tag(String sessionId) {
        return "mnemos:{s:" + sessionId + "}";
    }
}
