package dev.mnemos.session;

import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Each user's index of live sessions ({@link SessionKeys#userSessions}): a sorted set of session ids scored by
 * creation time. It caps the live sessions of a user, lists and pages them newest first, and prunes ids whose
 * session is gone (expired, deleted, a write that failed) as it reads them.
 */
final class RedisUserIndex {

    private final RedisCalls calls;
    private final ScriptTransport transport;

    RedisUserIndex(RedisCalls calls, ScriptTransport transport) {
        this.calls = calls;
        this.transport = transport;
    }

    /**
     * Adds the session to its user's index before it is written, so the cap on live sessions holds
     * under concurrent creates: each creator adds itself, then counts, and backs out when over the
     * cap (two racing creators at the cap may both back out; the cap is never exceeded). Ids whose
     * session is gone are pruned before refusing.
     *
     * @return whether the id was new in the index
     * @throws TooManySessionsException when the user is at the cap (the index is left as it was)
     */
    boolean reserve(String userId, String sessionId, Instant at) {
        String key = SessionKeys.userSessions(userId);
        var index = calls.redis.sortedSet(String.class);
        long[] reply = transport.write(LuaScript.RESERVE, userId, new ScriptArgs.Reserve(at.toEpochMilli(), sessionId, ttl()));
        int cap = calls.config.maxLivePerUser();
        if (reply[0] == 1 && reply[1] > cap) {
            List<String> indexed = index.zrange(key, 0, -1);
            List<Boolean> live = existing(indexed);
            for (int i = 0; i < indexed.size(); i++) {
                if (!live.get(i) && !indexed.get(i).equals(sessionId)) {
                    index.zrem(key, indexed.get(i));
                }
            }
            if (index.zcard(key) > cap) {
                index.zrem(key, sessionId);
                throw new TooManySessionsException(userId, cap);
            }
        }
        return reply[0] == 1;
    }

    /**
     * Backs out a reservation whose write found the id taken, unless the session holding it is the
     * user's own: concurrent creators of one id (a first call's session) race for the reservation,
     * and the loser must not take the winner's session out of the index.
     */
    void unreserve(String userId, String sessionId) {
        if (!userId.equals(calls.redis.hash(String.class).hget(SessionKeys.state(sessionId), "userId"))) {
            remove(userId, sessionId);
        }
    }

    /**
     * Puts a written session (back) into its user's index: a listing that ran between the
     * reservation and the write saw no state and pruned the id.
     */
    void indexed(String userId, String sessionId, Instant at) {
        transport.zadd(SessionKeys.userSessions(userId), at.toEpochMilli(), sessionId);
    }

    void remove(String userId, String sessionId) {
        calls.redis.sortedSet(String.class).zrem(SessionKeys.userSessions(userId), sessionId);
    }

    /**
     * The index lives longer than one session's TTL: step writes keep a session alive but (being
     * single-slot scripts) cannot refresh a key in the user's slot; listing prunes ids whose session is gone.
     */
    long ttl() {
        return calls.config.ttl().toMillis() * 7;
    }

    /** Ids of the user's live sessions, newest first. */
    List<String> live(String userId) {
        String key = SessionKeys.userSessions(userId);
        List<String> indexed = calls.redis.sortedSet(String.class).zrange(key, 0, -1);
        List<Boolean> live = existing(indexed);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < indexed.size(); i++) {
            if (live.get(i)) {
                ids.add(0, indexed.get(i));
            } else {
                calls.redis.sortedSet(String.class).zrem(key, indexed.get(i));
            }
        }
        return ids;
    }

    /**
     * Which of {@code ids} still have a session state: one {@code EXISTS} each (their keys live in
     * different slots), all sent at once, so a page waits for one round trip, not one per id.
     */
    List<Boolean> existing(List<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        List<Uni<Boolean>> checks = ids.stream().map(id -> calls.reactive.key().exists(SessionKeys.state(id))).toList();
        return calls.awaited(Uni.join().all(checks).andFailFast());
    }

    /**
     * A page walks the index newest first from a position (creation time, id), so each page costs a bounded
     * number of commands however many sessions the user has; ids whose session is gone are pruned on the way.
     * A position is {@code <epochMillis>:<sessionId>} ({@link Position#parse}); null starts at the newest.
     */
    SessionPage page(String userId, Position from, int limit) {
        String key = SessionKeys.userSessions(userId);
        var index = calls.redis.sortedSet(String.class);
        List<String> alive = new ArrayList<>();
        Position position = from;
        while (alive.size() <= limit) {
            int want = limit + 1 - alive.size();
            List<String> batch = after(key, position, want);
            OptionalDouble lastScore = batch.isEmpty() ? OptionalDouble.empty()
                    : index.zscore(key, batch.get(batch.size() - 1));
            List<Boolean> live = existing(batch);
            for (int i = 0; i < batch.size() && alive.size() <= limit; i++) {
                if (live.get(i)) {
                    alive.add(batch.get(i));
                } else {
                    index.zrem(key, batch.get(i));
                }
            }
            if (batch.size() < want) {
                break;
            }
            String last = batch.get(batch.size() - 1);
            position = new Position(lastScore.isPresent() ? (long) lastScore.getAsDouble()
                    : position == null ? Long.MAX_VALUE : position.score(), last);
        }
        if (alive.size() <= limit) {
            return new SessionPage(alive, null);
        }
        String lastShown = alive.get(limit - 1);
        long score = (long) index.zscore(key, lastShown).orElse(0);
        return new SessionPage(List.copyOf(alive.subList(0, limit)), new Position(score, lastShown).toString());
    }

    /** Up to {@code n} ids of the index after {@code position}, newest first (ties by id, descending). */
    private List<String> after(String key, Position position, int n) {
        List<String> ids = new ArrayList<>(n);
        String max = "+inf";
        if (position != null) {
            String score = Long.toString(position.score());
            for (var member : calls.redis.execute("ZREVRANGEBYSCORE", key, score, score)) {
                String id = member.toString();
                if (id.compareTo(position.id()) < 0 && ids.size() < n) {
                    ids.add(id);
                }
            }
            max = "(" + score;
        }
        if (ids.size() < n) {
            for (var member : calls.redis.execute("ZREVRANGEBYSCORE", key, max, "-inf", "LIMIT", "0",
                    Integer.toString(n - ids.size()))) {
                ids.add(member.toString());
            }
        }
        return ids;
    }

    /** Where a page of the index starts: after this creation time and id. */
    record Position(long score, String id) {

        /** @throws IllegalArgumentException when {@code text} is not a position a page handed out */
        static Position parse(String text) {
            int colon = text.indexOf(':');
            try {
                return new Position(Long.parseLong(text.substring(0, colon)),
                        SessionIds.require("cursor", text.substring(colon + 1)));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("not a session list position: " + text);
            }
        }

        @Override
        public String toString() {
            return score + ":" + id;
        }
    }
}
