package dev.mnemos.archive;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.PartitionKey;
import org.hibernate.type.SqlTypes;

import java.time.Instant;

/** An ended session: its final state, replay log and promotion report, as JSON. */
@Entity
@Table(name = "session_archive")
public class ArchivedSession extends PanacheEntityBase {

    @Id
    @Column(name = "session_id")
    public String sessionId;

    /** The distribution key: Hibernate adds it to this row's UPDATE and DELETE (docs/operations.md, scale-out). */
    @PartitionKey
    @Column(name = "user_id")
    public String userId;

    @Column(name = "ended_at")
    public Instant endedAt;

    @Column(name = "final_state")
    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String finalState;

    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String events;

    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String report;

    /** JSON array of the session's step traces, oldest first; null when it had none. */
    @JdbcTypeCode(SqlTypes.LONG32VARCHAR)
    public String traces;
}
