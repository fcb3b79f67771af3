package dev.mnemos.agent;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.Set;

/** VENTING and UNRECOGNIZED: the agent answers and writes nothing; the session version stays. */
@ApplicationScoped
public class TalkHandler implements IntentHandler {

    @Override
    public Set<Intent> intents() {
        return Set.of(Intent.VENTING, Intent.UNRECOGNIZED);
    }

    @Override
    public TurnOutcome handle(Turn turn) {
        Phrase phrase = turn.routing().intent() == Intent.VENTING ? Phrase.VENTING : Phrase.UNRECOGNIZED;
        return TurnOutcome.say(phrase.in(turn.language()), turn.state());
    }
}
