package dev.mnemos.app;

import dev.mnemos.archive.ArchiveEntry;
import dev.mnemos.archive.EndedSessions;
import dev.mnemos.injection.StepTrace;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;

import java.util.Optional;

/**
 * The archive of an application with session memory only: nothing is ever archived, so every read is empty (an
 * ended session's trace answers 404). Typed as {@link EndedSessions} alone, so the session layer's own
 * {@code SessionArchive} default stays the one it injects; the Postgres archive replaces it whenever it is built in.
 */
@DefaultBean
@Typed(EndedSessions.class)
@ApplicationScoped
public class NoEndedSessions implements EndedSessions {

    @Override
    public Optional<Archived> find(String sessionId) {
        return Optional.empty();
    }

    @Override
    public Optional<StepTrace> trace(String sessionId, long version) {
        return Optional.empty();
    }

    @Override
    public <T> Optional<T> report(String sessionId, Class<T> type) {
        return Optional.empty();
    }

    @Override
    public void save(ArchiveEntry entry) {
        throw new IllegalStateException("no session archive in an application with session memory only");
    }
}
