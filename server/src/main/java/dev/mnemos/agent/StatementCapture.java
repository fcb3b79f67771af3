package dev.mnemos.agent;

import dev.mnemos.profile.SlotRules;
import dev.mnemos.promotion.Reading;
import dev.mnemos.promotion.StatementReader;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;

/**
 * Checks every message the agent routes for standing statements ("from now on …", "I never …",
 * "I'm vegetarian") and records each as an observation with its scope — a promotion candidate —
 * whatever the intent, so a preference said in passing is not lost as a plain constraint or not at
 * all. Within a conversation (not its opening message, which states the goal or is small talk), a
 * clause with no cue that speaks about the user ("cats make me sneeze", "我上午效率最高") is recorded
 * too, without a scope, so the end of the task leaves it for the user's confirmation. Task-scoped
 * clauses and cue-less requests are left to the requirement analysis.
 */
@ApplicationScoped
public class StatementCapture {

    private final StatementReader statements;
    private final SessionStore store;
    private final AgentConfig config;
    private final Conversation conversation;

    public StatementCapture(StatementReader statements, SessionStore store, AgentConfig config,
            Conversation conversation) {
        this.statements = statements;
        this.store = store;
        this.config = config;
        this.conversation = conversation;
    }

    /**
     * Appends the standing clauses of {@code message} to the session's observations (one write, or none).
     *
     * @return whether it wrote
     */
    public boolean capture(String sessionId, String message) {
        List<Observation> standing = statements.clauses(message).stream().map(c -> candidate(sessionId, c))
                .flatMap(Optional::stream).toList();
        if (!standing.isEmpty()) {
            SessionPatch.Builder patch = SessionPatch.builder();
            standing.forEach(patch::addObservation);
            store.apply(StepWrite.of(sessionId, patch.build()).noting("standing statements").by(config.actor()));
            return true;
        }
        return false;
    }

    /**
     * The observation for a standing clause (scope STABLE), or for a cue-less one about the user said after
     * the opening message (no scope), if any.
     */
    private Optional<Observation> candidate(String sessionId, String clause) {
        Reading reading = statements.read(clause);
        if (reading.scope() == Scope.STABLE) {
            return Optional.of(observation(clause, Scope.STABLE));
        }
        boolean aboutTheUser = reading.kind() == Reading.Kind.NONE && statements.markers().personal(clause);
        return aboutTheUser && !conversation.recent(sessionId).isEmpty() ? Optional.of(observation(clause, Scope.UNKNOWN))
                : Optional.empty();
    }

    private static Observation observation(String clause, Scope scope) {
        String slot = SlotRules.detect(clause).map(SlotRules.Slot::name).orElse(null);
        return new Observation(null, clause, Observation.Kind.PREFERENCE, scope, slot, true, clause);
    }
}
