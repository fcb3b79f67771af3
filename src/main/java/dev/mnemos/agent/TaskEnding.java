package dev.mnemos.agent;

import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * The end of a task, the one place the agent touches promotion. Until the promotion service is
 * part of the application this ends the session and reports no promotion.
 */
@ApplicationScoped
public class TaskEnding {

    private final SessionStore store;
    private final AgentConfig config;

    public TaskEnding(SessionStore store, AgentConfig config) {
        this.store = store;
        this.config = config;
    }

    /** The ended session's final state, the promotion report (null when none was made), and the texts promoted. */
    public record Ended(SessionState state, Object report, List<String> promoted) {
    }

    public Ended end(SessionState s) {
        return new Ended(store.end(s.sessionId(), config.actor()), null, List.of());
    }
}
