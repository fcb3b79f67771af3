package dev.mnemos.erasure;

import dev.mnemos.crypt.DataKeys;
import dev.mnemos.crypt.SealedSessionValues;
import dev.mnemos.profile.ProfileCache;
import dev.mnemos.profile.ProfileRepository;
import dev.mnemos.profile.ProfileRevisions;
import dev.mnemos.profile.ProfileUnavailableException;
import dev.mnemos.session.RedisSessionScrub;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Erases a user: every row Mnemos keeps of them in Postgres ({@link #TABLES}: facts of every status, the audit
 * trail, promotion candidates, archived sessions, idempotency records, forgotten-text tombstones, destructive calls
 * held for the user, the profile's revision row), every Redis key of their sessions (live ones from the user's index, and the
 * ended markers of the
 * archived ones), the index, the profile revision's copy, and this pod's cached facts. A row of
 * {@code user_erasure} records that an erasure happened, when, who asked and how many rows went, naming no user.
 * <p>
 * Redis goes first, so a live session cannot end into a new archive after the rows went; Postgres then in one
 * transaction under the user's lock; then Redis once more for a session started meanwhile. Redis cannot join the
 * transaction: a failure there answers 503 after whatever was already deleted, and calling erase again finishes
 * the job (every step deletes what is left, and a user with nothing left is erased with zero counts).
 */
@ApplicationScoped
public class UserErasure {

    /** Mnemos' tables that hold a user's rows, in the order they are deleted (facts before the revision row). */
    public static final List<String> TABLES = List.of("profile_event", "profile_fact", "promotion_candidate",
            "session_archive", "profile_request", "profile_forgotten", "pending_request", "profile_owner");

    /** What an erasure removed: rows per table, and Redis keys. */
    public record Erasure(String userId, Map<String, Integer> rows, long redisKeys) {
    }

    private final RedisSessionScrub sessions;
    private final ProfileRepository repository;
    private final ProfileCache cache;
    private final DataKeys dataKeys;
    private final SealedSessionValues sealedValues;

    public UserErasure(RedisSessionScrub sessions, ProfileRepository repository, ProfileCache cache, DataKeys dataKeys,
            SealedSessionValues sealedValues) {
        this.sessions = sessions;
        this.dataKeys = dataKeys;
        this.sealedValues = sealedValues;
        this.repository = repository;
        this.cache = cache;
    }

    /** Erases {@code userId}; {@code actor} is recorded as who asked ({@code user}, or a service's name). */
    public Erasure erase(String userId, String actor) {
        long keys = sessions.erase(userId, sessions.indexed(userId));
        Map<String, Integer> rows = new LinkedHashMap<>();
        List<String> archived = ProfileUnavailableException
                .guard(() -> QuarkusTransaction.requiringNew().call(() -> deleteRows(userId, actor, rows)));
        Set<String> rest = new LinkedHashSet<>(archived);
        rest.addAll(sessions.indexed(userId));
        keys += sessions.erase(userId, rest, ProfileRevisions.key(userId));
        cache.invalidate(userId);
        dataKeys.evict(userId); // a write of this pod may have read it again before the erase committed
        return new Erasure(userId, rows, keys);
    }

    /**
     * Destroys the user's data key, then deletes their rows, and records the erasure; answers the ids of the user's
     * archived sessions. The key goes first, in the same transaction: once it commits, the user's sealed values open
     * nowhere, in a backup or a standby either.
     */
    private List<String> deleteRows(String userId, String actor, Map<String, Integer> rows) {
        var em = Panache.getEntityManager();
        boolean owned = ((Number) em.createNativeQuery("select count(*) from profile_owner where user_id = ?1")
                .setParameter(1, userId).getSingleResult()).longValue() > 0;
        repository.lock(userId);
        @SuppressWarnings("unchecked")
        List<String> archived = em.createNativeQuery("select session_id from session_archive where user_id = ?1")
                .setParameter(1, userId).getResultList();
        dataKeys.destroy(userId);
        sealedValues.forget(userId);
        for (String table : TABLES) {
            rows.put(table, em.createNativeQuery("delete from " + table + " where user_id = ?1").setParameter(1, userId)
                    .executeUpdate());
        }
        if (!owned) {
            rows.put("profile_owner", 0); // the lock made it: it was not the user's
        }
        em.createNativeQuery("insert into user_erasure (actor, erased_at, row_count) values (?1, ?2, ?3)")
                .setParameter(1, actor).setParameter(2, Instant.now())
                .setParameter(3, rows.values().stream().mapToLong(Integer::longValue).sum()).executeUpdate();
        return archived;
    }
}
