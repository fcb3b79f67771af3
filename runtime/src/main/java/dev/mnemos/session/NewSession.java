package dev.mnemos.session;

/**
 * A session to start ({@link SessionStore#create}, {@link SessionStore#createIfAbsent}) for {@code userId} at
 * version 1 with {@code initial} applied (null: empty). {@code idempotency} null creates a session every time,
 * else at most once per key (the session's id derives from the user and the key). Start with {@link #of}.
 */
public record NewSession(String userId, SessionPatch initial, String actor, Idempotency idempotency) {

    public static NewSession of(String userId, SessionPatch initial) {
        return new NewSession(userId, initial, null, null);
    }

    public NewSession by(String actor) {
        return new NewSession(userId, initial, actor, idempotency);
    }

    public NewSession keyed(Idempotency idempotency) {
        return new NewSession(userId, initial, actor, idempotency);
    }
}
