package dev.mnemos.profile;

import dev.mnemos.crypt.OpenedValues;
import dev.mnemos.crypt.Place;
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
 * One fact of a user's profile, ACTIVE or kept as SUPERSEDED history. Its text and embedding are stored sealed when
 * encryption at rest is on ({@link dev.mnemos.crypt.MemoryCipher}): their accessors, which Panache calls for every
 * {@code fact.text}, open them, and {@link #seal()} seals them as Hibernate writes the row.
 */
@Entity
@Table(name = "profile_fact")
public class ProfileFact extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    /** The distribution key: Hibernate adds it to this row's UPDATE and DELETE (docs/operations.md, scale-out). */
    @PartitionKey
    @Column(name = "user_id")
    public String userId;

    @Enumerated(EnumType.STRING)
    public Category category;

    public String slot;

    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String text;

    public double confidence;

    @Column(name = "evidence_count")
    public int evidenceCount;

    @Column(name = "source_session_id")
    public String sourceSessionId;

    @Enumerated(EnumType.STRING)
    @Column(name = "source_kind")
    public SourceKind sourceKind;

    @Enumerated(EnumType.STRING)
    @Column(name = "task_state")
    public TaskState taskState;

    @Enumerated(EnumType.STRING)
    public FactStatus status;

    @Column(name = "valid_from")
    public Instant validFrom;

    @Column(name = "valid_to")
    public Instant validTo;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    /** The all-MiniLM-L6-v2 embedding of {@link #text}, little-endian floats; recomputed when the text changes. */
    public byte[] embedding;

    @Transient
    private OpenedValues opened = new OpenedValues();

    public String getText() {
        return opened.text(text, place("text"));
    }

    public byte[] getEmbedding() {
        return opened.bytes(embedding, place("embedding"));
    }

    @PrePersist
    @PreUpdate
    void seal() {
        text = opened.seal(text, place("text"));
        embedding = opened.seal(embedding, place("embedding"));
    }

    private Place place(String column) {
        return Place.of(userId, "profile_fact", column);
    }

    public boolean active() {
        return status == FactStatus.ACTIVE;
    }

    public ActiveFact view() {
        return new ActiveFact(id, category, slot, getText(), confidence, updatedAt, taskState);
    }
}
