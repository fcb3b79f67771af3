package dev.mnemos.session;

import java.util.ArrayList;
import java.util.List;

/**
 * The Redis key layout, and its only owner: every Mnemos key is built here. Every key of one
 * session is {@code mnemos:{s:<sessionId>}:<family>} and shares the hash tag {@code {s:<sessionId>}},
 * so scripts and transactions over them stay valid on Redis Cluster; a user's index is
 * {@code mnemos:{u:<userId>}:sessions}, and their byte budget {@code mnemos:{u:<userId>}:bytes}. The index of ends
 * not yet archived is spread over {@link #UNFINISHED_END_BUCKETS} keys {@code mnemos:{ends:<bucket>}}.
 */
public final class SessionKeys {

    private SessionKeys() {
    }

    /** The session's current state: a hash with a field per scalar and per list item. */
    public static String state(String sessionId) {
        return tag(sessionId) + ":state";
    }

    /**
     * The session's history and bytes: a hash of {@code U<n>} → what versions 16n to 16n + 15 changed (their undo
     * records; {@code u<version>}, one a field, as earlier releases wrote them), {@code c<version>} → the state's
     * fields at that version (a checkpoint, listed in {@code cps}),
     * the counters {@code size}, {@code log}, {@code granted} and {@code cw}, and {@code actor}, the session's own actor,
     * which its replay entries leave out ({@code session-common.lua}).
     * Sessions written before undo records also hold checkpoints there: version → serialised state.
     */
    public static String snapshots(String sessionId) {
        return tag(sessionId) + ":snap";
    }

    /** The session's replay log: a stream whose entry ids are the versions. */
    public static String events(String sessionId) {
        return tag(sessionId) + ":events";
    }

    /**
     * The session's chat windows: a hash of window name → LangChain4j messages as one JSON string (one window per
     * AI service, or one shared window). Before 0.1 it was a string at {@code …:chat}, left to expire.
     */
    public static String chat(String sessionId) {
        return tag(sessionId) + ":chats";
    }

    /** The session's step traces: a hash of written version → trace JSON. */
    public static String trace(String sessionId) {
        return tag(sessionId) + ":trace";
    }

    /** The session's plan versions: a hash of their own, so loads can read only the newest. */
    public static String plans(String sessionId) {
        return tag(sessionId) + ":plans";
    }

    /**
     * The session's idempotency records: a hash of Idempotency-Key → request fingerprint and first
     * result, written by the same script as the write it records and expiring with the session.
     */
    public static String idempotency(String sessionId) {
        return tag(sessionId) + ":idem";
    }

    /** The user's live sessions (a sorted set scored by creation time). */
    public static String userSessions(String userId) {
        return "mnemos:{u:" + userId + "}:sessions";
    }

    /** A {@code SCAN MATCH} pattern for every user's index ({@link #userSessions}). */
    public static String userSessionsPattern() {
        return "mnemos:{u:*}:sessions";
    }

    /** The user whose index {@code key} is ({@link #userSessions}). */
    public static String userOfSessions(String key) {
        return key.substring("mnemos:{u:".length(), key.length() - "}:sessions".length());
    }

    /**
     * The bytes the user's budget granted each of their sessions: a hash of session id → bytes, and
     * {@code #total}, their sum ({@code user-bytes.lua}).
     */
    public static String userBytes(String userId) {
        return "mnemos:{u:" + userId + "}:bytes";
    }

    /**
     * Every key of the session, in the order the write scripts expect them ({@code KEYS[1]} state,
     * 2 snap, 3 events, 4 chat, 5 trace, 6 plans, 7 idempotency).
     */
    public static List<String> all(String sessionId) {
        return List.of(state(sessionId), snapshots(sessionId), events(sessionId), chat(sessionId), trace(sessionId),
                plans(sessionId), idempotency(sessionId));
    }

    /**
     * Left for the session TTL when an ended session's keys are cleared after archiving
     * ({@link SessionStore#retire}): a create under that id (a keyed create or fork retried
     * after the end, or a first {@code @SessionMemory} call) is refused instead of starting the
     * ended session again beside its archive.
     */
    public static String ended(String sessionId) {
        return tag(sessionId) + ":ended";
    }

    /**
     * How many buckets the index of unfinished ends has ({@link #unfinishedEnds}): enough that their hash tags land on
     * every master of a Cluster of a few masters (16 land on all three of a three-master Cluster), few enough that a
     * sweep reads them all in a handful of round trips.
     */
    public static final int UNFINISHED_END_BUCKETS = 16;

    /**
     * One bucket of the index of ends not yet archived: a sorted set of session ids (no user ids) scored by when their
     * end began ({@link RedisUnfinishedEnds}). Bucket {@code b} of {@link #UNFINISHED_END_BUCKETS}.
     */
    public static String unfinishedEnds(int bucket) {
        return "mnemos:{ends:" + bucket + "}";
    }

    /** The bucket of {@link #unfinishedEnds} that holds the session: a stable hash of its id. */
    public static String unfinishedEndsOf(String sessionId) {
        return unfinishedEnds(Math.floorMod(sessionId.hashCode(), UNFINISHED_END_BUCKETS));
    }

    /** {@link #all} and then {@link #ended}: the keys of the scripts that create a session or clear it. */
    static List<String> allAndEnded(String sessionId) {
        List<String> keys = new ArrayList<>(all(sessionId));
        keys.add(ended(sessionId));
        return keys;
    }

    private static String tag(String sessionId) {
        return "mnemos:{s:" + sessionId + "}";
    }
}
