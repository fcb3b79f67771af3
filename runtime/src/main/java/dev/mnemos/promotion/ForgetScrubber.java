package dev.mnemos.promotion;

import dev.mnemos.profile.FactForgotten;
import dev.mnemos.profile.FactText;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * When a profile fact is forgotten, deletes the user's promotion candidates with the same text
 * (the archive scrubs its own copies). Runs inside the forgetting transaction.
 */
@ApplicationScoped
public class ForgetScrubber {

    void onForget(@Observes FactForgotten fact) {
        String normalised = FactText.normalise(fact.text());
        PromotionCandidate.delete("userId = ?1 and (text = ?2 or candidateKey = ?3 or candidateKey = ?4)", fact.userId(),
                fact.text(), normalised, (fact.slot() == null ? "" : fact.slot() + "=") + normalised);
    }
}
