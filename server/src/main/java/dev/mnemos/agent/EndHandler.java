package dev.mnemos.agent;

import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Set;

/** END_TASK: moves the step pointer to the end, ends the task through promotion and reports what was kept. */
@ApplicationScoped
public class EndHandler implements IntentHandler {

    private final SessionSteps steps;
    private final TaskEnding ending;

    public EndHandler(SessionSteps steps, TaskEnding ending) {
        this.steps = steps;
        this.ending = ending;
    }

    @Override
    public Set<Intent> intents() {
        return Set.of(Intent.END_TASK);
    }

    @Override
    public TurnOutcome handle(Turn turn) {
        SessionState s = steps.write(turn.state(), SessionPatch.builder()
                .stepPointer(TaskStep.ENDED.ordinal(), TaskStep.ENDED.label()).build(), "end-task");
        TaskEnding.Ended ended = ending.end(s);
        Language lang = turn.language();
        String kept = ended.promoted().isEmpty() ? Phrase.NOTHING_PROMOTED.in(lang)
                : Phrase.PROMOTED.in(lang, String.join(lang == Language.ZH ? "；" : "; ", ended.promoted()));
        String plan = s.latestPlan() == null ? "-" : String.valueOf(s.latestPlan().version());
        return new TurnOutcome(Phrase.ENDED.in(lang, plan, kept), ended.state(), null, ended.report());
    }
}
