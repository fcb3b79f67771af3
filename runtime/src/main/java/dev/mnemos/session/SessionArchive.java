package dev.mnemos.session;

import java.util.List;
import java.util.Optional;

/**
 * Where ended sessions go once their Redis keys are cleared, so their history stays readable.
 * The archive feature ({@code dev.mnemos.archive}) supplies the Postgres implementation; without it
 * nothing is archived.
 */
public interface SessionArchive {

    /** An ended session's owner, replay log and final state. */
    record Archived(String sessionId, String userId, List<SessionEvent> events, SessionState finalState) {
    }

    Optional<Archived> find(String sessionId);

    /** The owner of an archived session, without reading its history. */
    default Optional<String> owner(String sessionId) {
        return find(sessionId).map(Archived::userId);
    }
}
