package dev.mnemos.promotion;

import dev.mnemos.crypt.OpenedValues;
import dev.mnemos.crypt.Place;
import dev.mnemos.profile.Category;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.PrePersist;
import jakarta.persistence.PreUpdate;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.PartitionKey;
import org.hibernate.type.SqlTypes;

import java.time.Instant;

/**
 * Every decision about a session's candidate; PENDING ones await the user's confirm or reject. Its key, text, reason
 * and embedding are stored sealed when encryption at rest is on, as {@link dev.mnemos.profile.ProfileFact}'s text is.
 */
@Entity
@Table(name = "promotion_candidate")
public class PromotionCandidate extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    /** The distribution key: Hibernate adds it to this row's UPDATE and DELETE (docs/operations.md, scale-out). */
    @PartitionKey
    @Column(name = "user_id")
    public String userId;

    @Column(name = "session_id")
    public String sessionId;

    @Column(name = "observation_id")
    public String observationId;

    @Column(name = "candidate_key")
    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String candidateKey;

    public String slot;

    @Enumerated(EnumType.STRING)
    public Category category;

    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String text;

    public double confidence;

    @Enumerated(EnumType.STRING)
    public CandidateStatus status;

    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String reason;

    /** Embedding of {@link #text}, little-endian floats; null when embeddings are unavailable. */
    public byte[] embedding;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "decided_at")
    public Instant decidedAt;

    @Transient
    private OpenedValues opened = new OpenedValues();

    public String getCandidateKey() {
        return opened.text(candidateKey, place("candidate_key"));
    }

    public String getText() {
        return opened.text(text, place("text"));
    }

    public String getReason() {
        return opened.text(reason, place("reason"));
    }

    public byte[] getEmbedding() {
        return opened.bytes(embedding, place("embedding"));
    }

    @PrePersist
    @PreUpdate
    void seal() {
        candidateKey = opened.seal(candidateKey, place("candidate_key"));
        text = opened.seal(text, place("text"));
        reason = opened.seal(reason, place("reason"));
        embedding = opened.seal(embedding, place("embedding"));
    }

    private Place place(String column) {
        return Place.of(userId, "promotion_candidate", column);
    }

    public PendingCandidate view() {
        return new PendingCandidate(id, sessionId, getText(), slot, category, confidence, status, getReason(), createdAt);
    }
}
