package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The owners of sessions, read once each: a session's owner never changes, and with encryption at rest every read or
 * write of its texts needs it ({@link SessionValues}). Bounded: emptied when full.
 */
public final class SessionOwners {

    private static final int MOST = 10_000;

    private final UnaryOperator<String> read;
    private final Map<String, String> owners = new ConcurrentHashMap<>();

    /** @param read the owner of a live session as Redis holds it; fails when there is none */
    SessionOwners(UnaryOperator<String> read) {
        this.read = read;
    }

    /** The owners of the sessions on {@code redis}, for the other stores of a session's keys (chat windows, traces). */
    public static SessionOwners of(RedisDataSource redis) {
        return new SessionOwners(sessionId -> {
            String userId = SessionStoreUnavailableException
                    .guard(() -> redis.hash(String.class).hget(SessionKeys.state(sessionId), "userId"));
            if (userId == null) {
                throw new SessionNotFoundException(sessionId);
            }
            return userId;
        });
    }

    /** The owner of the session when it was read before (null when not). */
    public String known(String sessionId) {
        return owners.get(sessionId);
    }

    /** The owner of the session. @throws SessionNotFoundException when it is not live */
    public String owner(String sessionId) {
        String known = owners.get(sessionId);
        if (known != null) {
            return known;
        }
        String owner = read.apply(sessionId);
        if (owners.size() >= MOST) {
            owners.clear();
        }
        owners.put(sessionId, owner);
        return owner;
    }
}
