package dev.mnemos.archive;

import dev.mnemos.crypt.OpenedValues;
import dev.mnemos.crypt.Place;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
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
 * An ended session: its final state, replay log and promotion report, as JSON. They and the traces are stored sealed
 * when encryption at rest is on, bound to the session's id as well as its user, as
 * {@link dev.mnemos.profile.ProfileFact}'s text is.
 */
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

    @Transient
    private OpenedValues opened = new OpenedValues();

    public String getFinalState() {
        return opened.text(finalState, place("final_state"));
    }

    public String getEvents() {
        return opened.text(events, place("events"));
    }

    public String getReport() {
        return opened.text(report, place("report"));
    }

    public String getTraces() {
        return opened.text(traces, place("traces"));
    }

    @PrePersist
    @PreUpdate
    void seal() {
        finalState = opened.seal(finalState, place("final_state"));
        events = opened.seal(events, place("events"));
        report = opened.seal(report, place("report"));
        traces = opened.seal(traces, place("traces"));
    }

    private Place place(String column) {
        return new Place(userId, "session_archive", column, sessionId);
    }
}
