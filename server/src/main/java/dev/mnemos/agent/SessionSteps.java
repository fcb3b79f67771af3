package dev.mnemos.agent;

import dev.mnemos.session.Rollback;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The agent's own writes that are not model steps (the end pointer, rollbacks): each a compare-and-set
 * on the version the turn read, so a concurrent write is never overwritten (it fails as stale instead).
 */
@ApplicationScoped
public class SessionSteps {

    private final SessionStore store;
    private final AgentConfig config;

    public SessionSteps(SessionStore store, AgentConfig config) {
        this.store = store;
        this.config = config;
    }

    /** Writes {@code patch} on top of {@code read} and returns the state it produced. */
    public SessionState write(SessionState read, SessionPatch patch, String note) {
        return store.apply(StepWrite.of(read.sessionId(), patch).expecting(read.version()).noting(note).by(config.actor()))
                .applyTo(read).orElseGet(() -> store.get(read.sessionId()));
    }

    public SessionState rollback(SessionState read, long toVersion) {
        return store.rollback(Rollback.of(read.sessionId(), toVersion).expecting(read.version()).by(config.actor()));
    }
}
