package dev.mnemos.agent;

import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import java.util.EnumMap;
import java.util.Map;

/**
 * The task-breakdown agent. Every message is routed (a {@code @SessionMemory} step that reads the
 * session and the recent conversation), checked for standing statements ({@link StatementCapture}),
 * then handled by the handler of its intent, whose steps write the session back.
 */
@ApplicationScoped
public class TaskAgent {

    private final AgentSessions sessions;
    private final IntentRouter router;
    private final Conversation conversation;
    private final TurnLanguage languages;
    private final StatementCapture capture;
    private final AfterStep afterStep;
    private final Map<Intent, IntentHandler> handlers = new EnumMap<>(Intent.class);

    public TaskAgent(AgentSessions sessions, IntentRouter router, Conversation conversation, TurnLanguage languages,
            StatementCapture capture, AfterStep afterStep, Instance<IntentHandler> all) {
        this.capture = capture;
        this.afterStep = afterStep;
        this.sessions = sessions;
        this.router = router;
        this.conversation = conversation;
        this.languages = languages;
        all.forEach(h -> h.intents().forEach(i -> handlers.put(i, h)));
    }

    /**
     * Answers {@code message} of {@code userId} in session {@code sessionId}, or in a new session when it is null.
     *
     * @throws SessionNotFoundException when the session does not exist or belongs to another user
     * @throws SessionEndedException when the session has ended
     */
    public AgentTurn chat(String userId, String sessionId, String message) {
        SessionState opened = sessions.open(userId, sessionId);
        String id = opened.sessionId();
        Routing routing = router.route(id, String.join("\n", conversation.recent(id)), message);
        // a captured standing statement is a write of its own: then the session is read again, else the turn
        // goes on from the state the routing step wrote
        SessionState state = capture.capture(id, message, routing.intent()) ? sessions.get(id) : afterStep.of(opened);
        Turn turn = new Turn(userId, state, message, routing, languages.of(state, message));
        TurnOutcome outcome = handlers.get(routing.intent()).handle(turn);
        if (routing.intent() != Intent.END_TASK) {
            conversation.append(id, message, outcome.reply());
        }
        return new AgentTurn(outcome.reply(), outcome.state(), routing.intent(), outcome.question(), outcome.promotion());
    }
}
