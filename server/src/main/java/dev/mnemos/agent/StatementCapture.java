package dev.mnemos.agent;

import dev.mnemos.capture.TurnCapture;
import dev.mnemos.promotion.StatementReader;
import dev.mnemos.session.Observation;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * Checks every message the agent routes for standing statements ("from now on …", "I never …",
 * "I'm vegetarian") and records each as an observation with its scope — a promotion candidate —
 * whatever the intent, so a preference said in passing is not lost as a plain constraint or not at
 * all. It is the default step writer's capture ({@link TurnCapture#observations}), over the application's languages:
 * a clause with no cue that speaks about the user ("cats make me sneeze", "我上午效率最高") is recorded too, without a
 * scope, so the end of the task leaves it for the user's confirmation, except in a question and in the clause that
 * opens a conversation whose message sets a task (routed {@link Intent#INSUFFICIENT_INFO} or
 * {@link Intent#READY_TO_DECOMPOSE}: that clause states the goal). An opening message that sets no task ("Coffee after
 * 4 pm keeps me up, I skip it", routed as nothing to act on) has no goal clause, so what it says about the user is
 * recorded as in any later message. Goals, task-scoped clauses and cue-less requests are the requirement analysis'
 * own.
 */
@ApplicationScoped
public class StatementCapture {

    private final TurnCapture turns;
    private final SessionStore store;
    private final AgentConfig config;
    private final Conversation conversation;

    public StatementCapture(StatementReader statements, SessionStore store, AgentConfig config,
            Conversation conversation) {
        this.turns = new TurnCapture(statements.markers());
        this.store = store;
        this.config = config;
        this.conversation = conversation;
    }

    /**
     * Appends the standing clauses of {@code message}, routed as {@code intent}, to the session's observations (one
     * write, or none).
     *
     * @return whether it wrote
     */
    public boolean capture(String sessionId, String message, Intent intent) {
        boolean setsTheGoal = intent == Intent.INSUFFICIENT_INFO || intent == Intent.READY_TO_DECOMPOSE;
        List<Observation> standing = turns.observations(message,
                setsTheGoal && conversation.recent(sessionId).isEmpty());
        if (!standing.isEmpty()) {
            SessionPatch.Builder patch = SessionPatch.builder();
            standing.forEach(patch::addObservation);
            store.apply(StepWrite.of(sessionId, patch.build()).noting("standing statements").by(config.actor()));
            return true;
        }
        return false;
    }
}
