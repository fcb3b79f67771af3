package dev.mnemos.profile;

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

/** One entry of the audit trail. {@code before}/{@code after} hold fact texts and are null after a forget. */
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

    public HistoryEntry view() {
        return new HistoryEntry(id, factId, action, before, after, reason, actor, sessionId, at);
    }
}
