package dev.mnemos.profile;

import dev.mnemos.crypt.DataKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** Queries of the profile tables. Methods that lock need a transaction opened by the caller. */
@ApplicationScoped
public class ProfileRepository {

    private final AgroalDataSource dataSource;
    private final ProfileConfig config;
    private final TransactionSynchronizationRegistry transactions;
    private final DataKeys dataKeys;

    public ProfileRepository(AgroalDataSource dataSource, ProfileConfig config,
            TransactionSynchronizationRegistry transactions, DataKeys dataKeys) {
        this.dataKeys = dataKeys;
        this.dataSource = dataSource;
        this.config = config;
        this.transactions = transactions;
    }

    /**
     * Locks the user's profile row (creating it on first write) until the transaction ends. A transaction
     * that holds the lock already (a session end locks, then writes the profile) gets its row again without
     * asking Postgres: a lock is held until the transaction ends.
     */
    public ProfileOwner lock(String userId) {
        var em = Panache.getEntityManager();
        String key = ProfileOwner.class.getName() + ":" + userId;
        if (transactions.getResource(key) instanceof ProfileOwner held && em.contains(held)) {
            return held;
        }
        ProfileOwner owner = lockRow(userId);
        transactions.putResource(key, owner);
        return owner;
    }

    /** The row of a user who has one is locked in one statement; a user's first write inserts it first. */
    private ProfileOwner lockRow(String userId) {
        var em = Panache.getEntityManager();
        em.createNativeQuery("select set_config('lock_timeout', ?1, true)")
                .setParameter(1, config.lockTimeout().toMillis() + "ms").getSingleResult();
        ProfileOwner owner = ProfileOwner.findById(userId, LockModeType.PESSIMISTIC_WRITE);
        if (owner != null) {
            return owner;
        }
        // a user's first write, or their first since an erase (which may have run on another pod): the data key this pod
        // may still cache was destroyed, and is read or created afresh
        dataKeys.evict(userId);
        // a profile starts at the microseconds since the epoch, not at 0: a user erased and written again has revisions
        // above any of the erased profile, so no pod serves facts it cached under the erased profile's revisions
        em.createNativeQuery("insert into profile_owner (user_id, revision)"
                + " values (?1, (extract(epoch from clock_timestamp()) * 1000000)::bigint) on conflict do nothing")
                .setParameter(1, userId).executeUpdate();
        return ProfileOwner.findById(userId, LockModeType.PESSIMISTIC_WRITE);
    }

    public List<ProfileFact> activeFacts(String userId) {
        return ProfileFact.list("userId = ?1 and status = ?2", Sort.by("id"), userId, FactStatus.ACTIVE);
    }

    public List<ProfileFact> allFacts(String userId) {
        return ProfileFact.list("userId", Sort.by("id"), userId);
    }

    /** The user's fact of this id, in any status; empty for another user's fact. */
    public Optional<ProfileFact> find(String userId, long factId) {
        // keyed by the user as well as the id: every query names the distribution key (docs/operations.md)
        return ProfileFact.<ProfileFact> find("userId = ?1 and id = ?2", userId, factId).firstResultOptional();
    }

    public List<ProfileFact> slotHistory(String userId, String slot) {
        return ProfileFact.list("userId = ?1 and slot = ?2", userId, slot);
    }

    /** At most {@code limit} audit events older than event {@code beforeId}, newest first. */
    public List<ProfileEvent> history(String userId, long beforeId, int limit) {
        return ProfileEvent.find("userId = ?1 and id < ?2", Sort.descending("id"), userId, beforeId).page(0, limit).list();
    }

    /** The newest {@code limit} audit events, newest first. */
    public List<ProfileEvent> history(String userId, int limit) {
        return ProfileEvent.find("userId", Sort.descending("id"), userId).page(0, limit).list();
    }

    /**
     * The profile's revision (0 before the first write; it then starts at the microseconds since the epoch of the
     * profile's creation, {@link #lock}), read without a transaction.
     */
    public long revision(String userId) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("select revision from profile_owner where user_id = ?")) {
            s.setString(1, userId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        } catch (SQLException e) {
            throw new ProfileUnavailableException("the profile store could not be read", e);
        }
    }

    /** Whether Postgres answers at all. */
    public boolean reachable() {
        try (Connection c = dataSource.getConnection()) {
            return c.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }
}
