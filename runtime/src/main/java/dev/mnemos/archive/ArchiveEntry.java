package dev.mnemos.archive;

import dev.mnemos.injection.StepTrace;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionState;

import java.time.Instant;
import java.util.List;

/**
 * What is kept of a session when it ends: its final state (which names the session and its owner),
 * its replay log and step traces, oldest first, and the report answered by the end call (stored as
 * JSON, read back with {@link EndedSessions#report}).
 */
public record ArchiveEntry(SessionState finalState, List<SessionEvent> events, List<StepTrace> traces, Object report,
        Instant endedAt) {
}
