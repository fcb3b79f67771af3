package dev.mnemos.agent;

import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionHistory;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import jakarta.enterprise.context.ApplicationScoped;

/** Opens the session a message belongs to: a new one, or a live one of the same user. */
@ApplicationScoped
public class AgentSessions {

    private final SessionStore store;
    private final SessionHistory history;
    private final AgentConfig config;

    public AgentSessions(SessionStore store, SessionHistory history, AgentConfig config) {
        this.store = store;
        this.history = history;
        this.config = config;
    }

    /**
     * A new session when {@code sessionId} is null, else the current state of {@code sessionId} once it is known to be
     * live and the user's: the one full read of a turn, before its first step.
     *
     * @throws SessionNotFoundException when it does not exist or belongs to another user
     * @throws SessionEndedException when it has ended (live with status ENDED, or already archived)
     */
    public SessionState open(String userId, String sessionId) {
        if (sessionId == null) {
            return store.create(NewSession.of(userId, SessionPatch.builder().build()).by(config.actor()));
        }
        SessionState state;
        try {
            state = store.get(sessionId);
        } catch (SessionNotFoundException e) {
            throw userId.equals(history.owner(sessionId)) ? new SessionEndedException(sessionId) : e;
        }
        if (!userId.equals(state.userId())) {
            throw new SessionNotFoundException(sessionId);
        }
        if (state.status() == SessionState.Status.ENDED) {
            throw new SessionEndedException(sessionId);
        }
        return state;
    }

    public SessionState get(String sessionId) {
        return store.get(sessionId);
    }
}
