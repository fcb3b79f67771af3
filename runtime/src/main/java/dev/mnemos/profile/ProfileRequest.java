package dev.mnemos.profile;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/** The record of a profile write sent with an Idempotency-Key ({@link ProfileRequests}). */
@Entity
@Table(name = "profile_request")
@IdClass(ProfileRequest.Key.class)
public class ProfileRequest extends PanacheEntityBase {

    @Id
    @Column(name = "user_id")
    public String userId;

    @Id
    @Column(name = "idem_key")
    public String key;

    /** Null once the user forgot a fact: the key is spent, whatever request comes with it. */
    @JdbcTypeCode(SqlTypes.CHAR)
    @Column(length = 64)
    public String fingerprint;

    /** How the write was decided ({@link Reconciler.Path}). */
    public String path;

    /** The ids of the audit events the write made, in order, comma-separated (empty when it changed nothing). */
    @Column(name = "event_ids")
    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String eventIds;

    @Column(name = "created_at")
    public Instant createdAt;

    /** The primary key: a key is the user's own. */
    public static class Key implements Serializable {

        public String userId;
        public String key;

        public Key() {
        }

        public Key(String userId, String key) {
            this.userId = userId;
            this.key = key;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(userId, k.userId) && Objects.equals(key, k.key);
        }

        @Override
        public int hashCode() {
            return Objects.hash(userId, key);
        }
    }
}
