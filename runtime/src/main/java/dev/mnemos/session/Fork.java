package dev.mnemos.session;

import java.util.Objects;

/**
 * A fork ({@link SessionStore#fork}): a new session of the same user from the state at {@code fromVersion}.
 * {@code idempotency} null forks every time, else at most once per key (the fork's id derives from the key).
 * {@code owner} non-null forks only the owner's session: another user's fails as a missing one
 * ({@link SessionNotFoundException}), writing nothing. Start with {@link #of}.
 */
public record Fork(String sessionId, long fromVersion, String actor, Idempotency idempotency, String owner) {

    public Fork {
        Objects.requireNonNull(sessionId, "sessionId");
    }

    public static Fork of(String sessionId, long fromVersion) {
        return new Fork(sessionId, fromVersion, null, null, null);
    }

    public Fork by(String actor) {
        return new Fork(sessionId, fromVersion, actor, idempotency, owner);
    }

    public Fork keyed(Idempotency idempotency) {
        return new Fork(sessionId, fromVersion, actor, idempotency, owner);
    }

    public Fork ownedBy(String owner) {
        return new Fork(sessionId, fromVersion, actor, idempotency, owner);
    }
}
