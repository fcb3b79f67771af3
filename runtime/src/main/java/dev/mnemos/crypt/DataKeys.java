package dev.mnemos.crypt;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Optional;

/**
 * The users' AES-256 data keys. Each is stored only wrapped by the key-encryption key ({@code user_data_key}), created
 * at the user's first sealed write, and kept unwrapped in a bounded in-memory cache; it is never logged.
 * <p>
 * A new key is stored in a transaction of its own, committed before the value it seals: a write that rolls back then
 * leaves an unused key, never a value sealed by a key that was not stored. Two pods creating a user's key at once
 * store one ({@code on conflict do nothing}) and both use the stored one.
 */
@ApplicationScoped
public class DataKeys {

    private final AgroalDataSource db;
    private final KeyEncryptionKeys keks;
    private final Cache<String, DataKey> cache;

    public DataKeys(AgroalDataSource db, KeyEncryptionKeys keks, EncryptionConfig config) {
        this.db = db;
        this.keks = keks;
        this.cache = Caffeine.newBuilder().maximumSize(config.cachedKeys()).executor(Runnable::run).build();
    }

    /** Whether values are sealed: a key-encryption key is there. */
    public boolean enabled() {
        return keks.enabled();
    }

    /** The name of the key-encryption key new data keys are wrapped by. */
    public String currentKeyId() {
        return keks.currentKeyId();
    }

    /** The user's data key when it is in memory; empty when reading it would need Postgres. */
    Optional<DataKey> inMemory(String userId) {
        return Optional.ofNullable(cache.getIfPresent(userId));
    }

    /** The user's data key, created on first use. */
    DataKey forWrite(String userId) {
        return cache.get(userId, u -> load(u).orElseGet(() -> create(u)));
    }

    /** The user's data key; empty when they have none (never had one, or it was destroyed by an erase). */
    Optional<DataKey> forRead(String userId) {
        DataKey cached = cache.getIfPresent(userId);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<DataKey> key = load(userId);
        key.ifPresent(k -> cache.put(userId, k));
        return key;
    }

    /**
     * Deletes the user's data key in the caller's transaction (an erase, before it deletes the rows): every value
     * sealed by it, in Postgres and in every backup, no longer opens. Answers whether there was one.
     */
    public boolean destroy(String userId) {
        cache.invalidate(userId);
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement("delete from user_data_key where user_id = ?")) {
            s.setString(1, userId);
            return s.executeUpdate() > 0;
        } catch (SQLException e) {
            throw new IllegalStateException("the data key of a user could not be deleted", e);
        }
    }

    /**
     * Forgets this pod's copy of the user's data key: after an erase (here or on another pod, which a profile written
     * again shows), the next write reads or creates the key afresh.
     */
    public void evict(String userId) {
        cache.invalidate(userId);
    }

    private Optional<DataKey> load(String userId) {
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement("select key_id, wrapped from user_data_key where user_id = ?")) {
            s.setString(1, userId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(unwrap(userId, new KeyEncryptionKeys.Wrapped(rs.getString(1), rs.getBytes(2))))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the data key of a user could not be read", e);
        }
    }

    private DataKey create(String userId) {
        byte[] fresh = Aead.randomKey();
        try {
            KeyEncryptionKeys.Wrapped wrapped = keks.wrap(fresh);
            QuarkusTransaction.requiringNew().run(() -> insert(userId, wrapped));
        } finally {
            Arrays.fill(fresh, (byte) 0);
        }
        return load(userId).orElseThrow(() -> new IllegalStateException("a data key was stored and is gone"));
    }

    private void insert(String userId, KeyEncryptionKeys.Wrapped wrapped) {
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement("insert into user_data_key (user_id, key_id, wrapped)"
                        + " values (?, ?, ?) on conflict (user_id) do nothing")) {
            s.setString(1, userId);
            s.setString(2, wrapped.keyId());
            s.setBytes(3, wrapped.bytes());
            s.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("the data key of a user could not be stored", e);
        }
    }

    private DataKey unwrap(String userId, KeyEncryptionKeys.Wrapped wrapped) {
        byte[] key = keks.unwrap(wrapped);
        try {
            return new DataKey(userId, key);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }
}
