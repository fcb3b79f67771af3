package dev.mnemos.archive;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.erasure.ForgottenCopies;
import dev.mnemos.profile.FactForgotten;
import dev.mnemos.profile.ProfilePromotions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * When a text is forgotten, blanks it out of the user's archived sessions (final state, replay log, report and step
 * traces) in every form it is stored in, together with the texts the user's forgotten texts cover there (its
 * rewordings, an earlier wording of it) and the evidence of those observations ({@link ForgottenCopies}). Runs
 * inside the forgetting transaction; every archived session of the user is read, so a forget costs in proportion
 * to them.
 */
@ApplicationScoped
public class ArchiveScrubber {

    private final ObjectMapper json;
    private final ProfilePromotions profile;

    public ArchiveScrubber(ObjectMapper json, ProfilePromotions profile) {
        this.json = json;
        this.profile = profile;
    }

    void onForget(@Observes FactForgotten fact) {
        ForgottenCopies copies = new ForgottenCopies(json, profile.forgotten(fact.userId()));
        for (ArchivedSession archived : ArchivedSession.<ArchivedSession> list("userId", fact.userId())) {
            Set<String> texts = new LinkedHashSet<>(List.of(fact.text()));
            texts.addAll(copies.spokenIn(archived.finalState));
            texts.addAll(copies.spokenIn(archived.events));
            texts.addAll(copies.spokenIn(archived.report));
            texts.addAll(copies.spokenIn(archived.traces));
            List<String> forms = copies.forms(texts);
            archived.finalState = ForgottenCopies.blank(archived.finalState, forms);
            archived.events = ForgottenCopies.blank(archived.events, forms);
            archived.report = ForgottenCopies.blank(archived.report, forms);
            archived.traces = ForgottenCopies.blank(archived.traces, forms);
        }
    }
}
