package dev.mnemos.profile;

import dev.mnemos.crypt.OpenedValues;
import dev.mnemos.crypt.Place;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
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

/** A text the user forgot, as its keyed digest and embedding: never its words ({@link ForgottenTexts}). */
@Entity
@Table(name = "profile_forgotten")
public class ForgottenText extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    /** The distribution key: Hibernate adds it to this row's UPDATE and DELETE (docs/operations.md, scale-out). */
    @PartitionKey
    @Column(name = "user_id")
    public String userId;

    /** HMAC-SHA-256 (hex) of the user and the normalised text. */
    @JdbcTypeCode(SqlTypes.CHAR)
    @Column(length = 64)
    public String digest;

    /** The text's embedding in {@link FactEmbeddings#encode} form; null without embeddings. */
    public byte[] embedding;

    @Column(name = "forgotten_at")
    public Instant forgottenAt;

    @Transient
    private OpenedValues opened = new OpenedValues();

    /** The embedding, opened: an embedding says what its text said, so it is stored sealed when encryption is on. */
    public byte[] getEmbedding() {
        return opened.bytes(embedding, place());
    }

    @PrePersist
    @PreUpdate
    void seal() {
        embedding = opened.seal(embedding, place());
    }

    private Place place() {
        return Place.of(userId, "profile_forgotten", "embedding");
    }
}
