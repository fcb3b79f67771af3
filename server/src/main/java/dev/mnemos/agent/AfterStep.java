package dev.mnemos.agent;

import dev.mnemos.injection.StepResults;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The session after one of the agent's model steps: the state the turn holds with the patch the
 * step wrote applied ({@link StepResults}), so a turn reads the whole session once, before its
 * first step. Only when another writer came in between is the session read again.
 */
@ApplicationScoped
public class AfterStep {

    private final StepResults results;
    private final SessionStore store;

    public AfterStep(StepResults results, SessionStore store) {
        this.results = results;
        this.store = store;
    }

    /** The state after the step that ran on {@code before}. */
    public SessionState of(SessionState before) {
        return results.after(before).orElseGet(() -> store.get(before.sessionId()));
    }
}
