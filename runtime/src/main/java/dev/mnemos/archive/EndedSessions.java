package dev.mnemos.archive;

import dev.mnemos.injection.StepTrace;
import dev.mnemos.session.SessionArchive;

import java.util.Optional;

/**
 * The archive of ended sessions as the features that fill and serve it see it: besides the replay
 * log and final state of {@link SessionArchive}, an ended session keeps its step traces and the
 * report answered when it ended. Every read is empty for a session that was never archived.
 */
public interface EndedSessions extends SessionArchive {

    /** The archived trace of the step that wrote {@code version}, or empty. */
    Optional<StepTrace> trace(String sessionId, long version);

    /** The report stored with the session when it ended, read as {@code type}. */
    <T> Optional<T> report(String sessionId, Class<T> type);

    /** Archives an ended session; joins the caller's transaction when there is one. */
    void save(ArchiveEntry entry);
}
