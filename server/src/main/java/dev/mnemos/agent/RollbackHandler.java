package dev.mnemos.agent;

import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.VersionGoneException;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.OptionalLong;
import java.util.Set;

/**
 * ROLLBACK_PLAN: rolls the session back to the last version at which the named plan was the newest
 * one. The rollback is a new session version; the later plans stay in the history.
 */
@ApplicationScoped
public class RollbackHandler implements IntentHandler {

    private static final int MAX_EVENTS = 10_000;

    private final SessionStore store;
    private final SessionSteps steps;

    public RollbackHandler(SessionStore store, SessionSteps steps) {
        this.store = store;
        this.steps = steps;
    }

    @Override
    public Set<Intent> intents() {
        return Set.of(Intent.ROLLBACK_PLAN);
    }

    @Override
    public TurnOutcome handle(Turn turn) {
        SessionState s = turn.state();
        Language lang = turn.language();
        if (s.latestPlan() == null) {
            return TurnOutcome.say(Phrase.NO_PLAN.in(lang), s);
        }
        int target = turn.routing().planVersion() != null ? turn.routing().planVersion() : s.latestPlan().version() - 1;
        OptionalLong version = PlanHistory.sessionVersionOf(store.events(s.sessionId(), 1, MAX_EVENTS), target);
        if (version.isEmpty()) {
            return TurnOutcome.say(Phrase.NO_SUCH_PLAN.in(lang, target, PlanReplies.versions(s.plans())), s);
        }
        SessionState back;
        try {
            back = steps.rollback(s, version.getAsLong());
        } catch (VersionGoneException e) {
            return TurnOutcome.say(Phrase.VERSION_GONE.in(lang, target), s);
        }
        PlanVersion plan = back.latestPlan();
        return TurnOutcome.say(Phrase.ROLLED_BACK.in(lang, plan.version(), PlanReplies.score(plan), plan.content()), back);
    }
}
