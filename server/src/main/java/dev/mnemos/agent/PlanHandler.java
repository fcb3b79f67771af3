package dev.mnemos.agent;

import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Set;

/**
 * READY_TO_DECOMPOSE and REVISE_PLAN: plan v1 → evaluate → rewrite while the score is below the
 * target (at most {@link AgentConfig#autoRevisions()} times); a revision request rewrites once more. The rounds are
 * one call of the {@link PlanningLoop} workflow.
 */
@ApplicationScoped
public class PlanHandler implements IntentHandler {

    private final RequirementStep requirements;
    private final PlanningStep planning;
    private final TurnLanguage languages;
    private final AgentConfig config;

    public PlanHandler(RequirementStep requirements, PlanningStep planning, TurnLanguage languages, AgentConfig config) {
        this.requirements = requirements;
        this.planning = planning;
        this.languages = languages;
        this.config = config;
    }

    @Override
    public Set<Intent> intents() {
        return Set.of(Intent.READY_TO_DECOMPOSE, Intent.REVISE_PLAN);
    }

    @Override
    public TurnOutcome handle(Turn turn) {
        boolean revise = turn.routing().intent() == Intent.REVISE_PLAN && turn.state().latestPlan() != null;
        SessionState s = revise ? turn.state() : requirements.run(turn).state();
        Language lang = languages.of(s, turn.message());
        if (s.goal() == null) {
            return new TurnOutcome(Phrase.ASK_GOAL.in(lang), s, Phrase.ASK_GOAL.in(lang), null);
        }
        s = planning.plan(s, revise ? turn.message() : null, lang, revise ? 1 : 1 + config.autoRevisions());
        return TurnOutcome.say(PlanReplies.latest(s, lang), s);
    }
}
