package dev.mnemos.agent;

import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import java.util.EnumMap;
import java.util.Map;

/**
 * The task-breakdown agent. Every message is routed with the session read before the turn and the
 * recent conversation, then handled by the handler of its intent, which writes its steps back.
 */
@ApplicationScoped
public class TaskAgent {

    private final SessionStore store;
    private final IntentRouter router;
    private final RedisConversationLog log;
    private final Map<Intent, IntentHandler> handlers = new EnumMap<>(Intent.class);

    public TaskAgent(SessionStore store, IntentRouter router, RedisConversationLog log, Instance<IntentHandler> all) {
        this.store = store;
        this.router = router;
        this.log = log;
        all.forEach(h -> h.intents().forEach(i -> handlers.put(i, h)));
    }

    /**
     * Answers {@code message} of {@code userId} in session {@code sessionId}, or in a new session when it is null.
     *
     * @throws SessionNotFoundException when the session does not exist or belongs to another user
     * @throws SessionEndedException    when the session has ended
     */
    public AgentTurn chat(String userId, String sessionId, String message) {
        SessionState state = sessionId == null ? store.create(userId, SessionPatch.builder().build(), "agent")
                : owned(userId, sessionId);
        String memory = MemoryBlock.render(state);
        Routing routing = router.route(memory, String.join("\n", log.recent(state.sessionId())), message);
        Turn turn = new Turn(userId, state, message, routing, memory, Language.forTurn(state, message));
        TurnOutcome outcome = handlers.get(routing.intent()).handle(turn);
        if (routing.intent() != Intent.END_TASK) {
            log.append(state.sessionId(), message, outcome.reply());
        }
        return new AgentTurn(outcome.reply(), outcome.state(), routing.intent(), outcome.question(), outcome.promotion());
    }

    private SessionState owned(String userId, String sessionId) {
        SessionState state = store.get(sessionId);
        if (!userId.equals(state.userId())) {
            throw new SessionNotFoundException(sessionId);
        }
        if (state.status() == SessionState.Status.ENDED) {
            throw new SessionEndedException(sessionId);
        }
        return state;
    }
}
