package dev.mnemos.promotion;

import dev.mnemos.profile.Category;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.PartitionKey;
import org.hibernate.type.SqlTypes;

import java.time.Instant;

/** Every decision about a session's candidate; PENDING ones await the user's confirm or reject. */
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

    public PendingCandidate view() {
        return new PendingCandidate(id, sessionId, text, slot, category, confidence, status, reason, createdAt);
    }
}
