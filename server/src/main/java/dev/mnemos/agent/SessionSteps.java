package dev.mnemos.agent;

import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.OptionalLong;

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
        return store.apply(read.sessionId(), null, patch, OptionalLong.of(read.version()), note, config.actor())
                .applyTo(read).orElseGet(() -> store.get(read.sessionId()));
    }

    public SessionState rollback(SessionState read, long toVersion) {
        return store.rollback(read.sessionId(), toVersion, OptionalLong.of(read.version()), config.actor());
    }
}
