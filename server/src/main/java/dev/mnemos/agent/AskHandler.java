package dev.mnemos.agent;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** INSUFFICIENT_INFO: records what the message says and asks the one most useful question. */
@ApplicationScoped
public class AskHandler implements IntentHandler {

    private final RequirementStep requirements;
    private final TurnLanguage languages;

    public AskHandler(RequirementStep requirements, TurnLanguage languages) {
        this.requirements = requirements;
        this.languages = languages;
    }

    @Override
    public Set<Intent> intents() {
        return Set.of(Intent.INSUFFICIENT_INFO);
    }

    @Override
    public TurnOutcome handle(Turn turn) {
        RequirementStep.Result result = requirements.run(turn);
        Requirements req = result.requirements();
        Language lang = languages.of(result.state(), turn.message());
        String question = req.question() != null ? req.question()
                : result.state().goal() == null ? Phrase.ASK_GOAL.in(lang) : null;
        String reply = noted(req, lang) + (question != null ? question : Phrase.ENOUGH.in(lang));
        return new TurnOutcome(reply, result.state(), question, null);
    }

    static String noted(Requirements req, Language lang) {
        String items = Stream.concat(Stream.ofNullable(req.goal()), req.findings().stream().map(Finding::text))
                .collect(Collectors.joining(lang == Language.ZH ? "；" : "; "));
        String gap = lang == Language.ZH ? "" : " ";
        return (items.isEmpty() ? Phrase.NOTHING_NEW.in(lang) : Phrase.NOTED.in(lang, items)) + gap;
    }
}
