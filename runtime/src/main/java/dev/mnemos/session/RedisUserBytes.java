package dev.mnemos.session;

import java.util.List;

/**
 * Each user's byte budget ({@link SessionKeys#userBytes}, {@code user-bytes.lua}): the bytes it granted each of
 * the user's sessions. A session takes grants of at least {@link #GRANT_STEP} as it grows, so most writes need
 * none; a session's scripts refuse a write beyond its grant ({@link ScriptReply#NEEDS_BYTES}) and the writer
 * asks here for more.
 */
final class RedisUserBytes {

    /** The least a session is granted at once from its user's budget, so most writes need no grant. */
    private static final long GRANT_STEP = 16 * 1024;

    private final RedisCalls calls;
    private final ScriptTransport transport;
    private final RedisUserIndex index;

    RedisUserBytes(RedisCalls calls, ScriptTransport transport, RedisUserIndex index) {
        this.calls = calls;
        this.transport = transport;
        this.index = index;
    }

    /** Whether users have a budget at all ({@link SessionConfig#maxUserBytes()} above 0). */
    boolean budgeted() {
        return calls.config.maxUserBytes() > 0;
    }

    /**
     * Grants the session at least {@code bytes} (at least {@link #GRANT_STEP}) from its user's budget. A
     * user over the budget first has the grants of their sessions that are gone (expired, deleted) taken
     * back. @return the bytes granted
     *
     * @throws UserBytesExceededException when the budget cannot cover them (nothing was granted)
     */
    long grant(String userId, String sessionId, long bytes) {
        long amount = Math.max(bytes, GRANT_STEP);
        if (run(userId, ScriptArgs.BudgetOp.GRANT, sessionId, amount)) {
            return amount;
        }
        String key = SessionKeys.userBytes(userId);
        List<String> ids = calls.redis.hash(String.class).hkeys(key).stream().filter(id -> !id.startsWith("#"))
                .toList();
        List<Boolean> live = index.existing(ids);
        for (int i = 0; i < ids.size(); i++) {
            if (!live.get(i)) {
                release(userId, ids.get(i));
            }
        }
        if (run(userId, ScriptArgs.BudgetOp.GRANT, sessionId, amount)) {
            return amount;
        }
        throw new UserBytesExceededException(userId, calls.config.maxUserBytes());
    }

    /** Grants a live session {@code bytes} more from its user's budget, and records the grant in the session. */
    void topUp(String sessionId, String userId, long bytes) {
        long amount = grant(userId, sessionId, bytes);
        if (transport.write(LuaScript.GRANT, sessionId, new ScriptArgs.Grant(amount))[0] == 0) {
            giveBack(userId, sessionId, amount);
        }
    }

    /** Takes back {@code bytes} granted to a session whose write did not happen. */
    void giveBack(String userId, String sessionId, long bytes) {
        run(userId, ScriptArgs.BudgetOp.RETURN, sessionId, bytes);
    }

    /** Drops the grant of a session that is gone. */
    void release(String userId, String sessionId) {
        run(userId, ScriptArgs.BudgetOp.RELEASE, sessionId, 0);
    }

    /** Runs user-bytes.lua. @return whether it was done (false: a grant over the budget) */
    private boolean run(String userId, ScriptArgs.BudgetOp op, String sessionId, long bytes) {
        return transport.write(LuaScript.BUDGET, userId,
                new ScriptArgs.Budget(op, sessionId, bytes, calls.config.maxUserBytes(), index.ttl()))[0] == 1;
    }
}
