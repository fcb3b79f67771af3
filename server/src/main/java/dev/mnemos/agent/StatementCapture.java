package dev.mnemos.agent;

import dev.mnemos.profile.SlotRules;
import dev.mnemos.promotion.StatementReader;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.OptionalLong;

/**
 * Checks every message the agent routes for standing statements ("from now on …", "I never …",
 * "I'm vegetarian") and records each as an observation with its scope — a promotion candidate —
 * whatever the intent, so a preference said in passing is not lost as a plain constraint or not at
 * all. Task-scoped clauses are left to the requirement analysis.
 */
@ApplicationScoped
public class StatementCapture {

    private final StatementReader statements;
    private final SessionStore store;
    private final AgentConfig config;

    public StatementCapture(StatementReader statements, SessionStore store, AgentConfig config) {
        this.statements = statements;
        this.store = store;
        this.config = config;
    }

    /**
     * Appends the standing clauses of {@code message} to the session's observations (one write, or none).
     *
     * @return whether it wrote
     */
    public boolean capture(String sessionId, String message) {
        List<Observation> standing = statements.clauses(message).stream()
                .filter(c -> statements.read(c).scope() == Scope.STABLE).map(StatementCapture::observation).toList();
        if (!standing.isEmpty()) {
            SessionPatch.Builder patch = SessionPatch.builder();
            standing.forEach(patch::addObservation);
            store.write(sessionId, patch.build(), OptionalLong.empty(), "standing statements", config.actor());
            return true;
        }
        return false;
    }

    private static Observation observation(String clause) {
        String slot = SlotRules.detect(clause).map(SlotRules.Slot::name).orElse(null);
        return new Observation(null, clause, Observation.Kind.PREFERENCE, Scope.STABLE, slot, true, clause);
    }
}
