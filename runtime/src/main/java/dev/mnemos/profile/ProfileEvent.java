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
 * One entry of the audit trail. {@code before}/{@code after} hold fact texts and are null after a forget. They and
 * {@code reason} are stored sealed when encryption at rest is on, as {@link ProfileFact}'s text is.
 */
@Entity
@Table(name = "profile_event")
public class ProfileEvent extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    /** The distribution key: Hibernate adds it to this row's UPDATE and DELETE (docs/operations.md, scale-out). */
    @PartitionKey
    @Column(name = "user_id")
    public String userId;

    @Column(name = "fact_id")
    public Long factId;

    @Enumerated(EnumType.STRING)
    public ProfileAction action;

    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String before;

    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String after;

    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String reason;

    public String actor;

    @Column(name = "session_id")
    public String sessionId;

    public Instant at;

    /** The event this one reverts (undo of a session's promotion); null otherwise. */
    public Long undoes;

    /** On a RESTORE event: the {@code valid_to} the restored fact had, where the gap in its validity starts. */
    @Column(name = "prior_valid_to")
    public Instant priorValidTo;

    @Transient
    private OpenedValues opened = new OpenedValues();

    public String getBefore() {
        return opened.text(before, place("before"));
    }

    public String getAfter() {
        return opened.text(after, place("after"));
    }

    public String getReason() {
        return opened.text(reason, place("reason"));
    }

    @PrePersist
    @PreUpdate
    void seal() {
        before = opened.seal(before, place("before"));
        after = opened.seal(after, place("after"));
        reason = opened.seal(reason, place("reason"));
    }

    private Place place(String column) {
        return Place.of(userId, "profile_event", column);
    }

    public HistoryEntry view() {
        return new HistoryEntry(id, factId, action, getBefore(), getAfter(), getReason(), actor, sessionId, at);
    }
}
