package dev.mnemos.promotion;

import dev.mnemos.profile.FactForgotten;
import dev.mnemos.profile.FactText;
import dev.mnemos.profile.ProfilePromotions;
import dev.mnemos.profile.Tombstones;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * When a profile fact is forgotten, deletes the user's promotion candidates that say it again — the
 * same text, the same normalised text, or a rewording of a forgotten text ({@link Tombstones}) —
 * whatever their status: a pending one can no longer be confirmed, none counts as evidence again (the
 * archive scrubs its own copies). Runs inside the forgetting transaction, after the text's tombstone
 * was written.
 */
@ApplicationScoped
public class ForgetScrubber {

    private final ProfilePromotions profile;

    public ForgetScrubber(ProfilePromotions profile) {
        this.profile = profile;
    }

    void onForget(@Observes FactForgotten fact) {
        String normalised = FactText.normalise(fact.text());
        PromotionCandidate.delete("userId = ?1 and (text = ?2 or candidateKey = ?3 or candidateKey = ?4)", fact.userId(),
                fact.text(), normalised, (fact.slot() == null ? "" : fact.slot() + "=") + normalised);
        Tombstones forgotten = profile.forgotten(fact.userId());
        PromotionCandidate.<PromotionCandidate> list("userId = ?1 and embedding is not null", fact.userId()).stream()
                .filter(c -> forgotten.covers(c.text, profile.decode(c.embedding)))
                .forEach(PromotionCandidate::delete);
    }
}
