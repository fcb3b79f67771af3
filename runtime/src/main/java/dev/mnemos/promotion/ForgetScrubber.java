package dev.mnemos.promotion;

import dev.mnemos.crypt.MemoryCipher;
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
    private final MemoryCipher cipher;

    public ForgetScrubber(ProfilePromotions profile, MemoryCipher cipher) {
        this.profile = profile;
        this.cipher = cipher;
    }

    void onForget(@Observes FactForgotten fact) {
        String normalised = FactText.normalise(fact.text());
        String slotted = (fact.slot() == null ? "" : fact.slot() + "=") + normalised;
        if (cipher.on()) {
            // sealed texts do not compare in SQL: the user's candidates are compared here
            PromotionCandidate.<PromotionCandidate> list("userId", fact.userId()).stream()
                    .filter(c -> fact.text().equals(c.text) || normalised.equals(c.candidateKey)
                            || slotted.equals(c.candidateKey))
                    .forEach(PromotionCandidate::delete);
        } else {
            PromotionCandidate.delete("userId = ?1 and (text = ?2 or candidateKey = ?3 or candidateKey = ?4)",
                    fact.userId(), fact.text(), normalised, slotted);
        }
        Tombstones forgotten = profile.forgotten(fact.userId());
        PromotionCandidate.<PromotionCandidate> list("userId = ?1 and embedding is not null", fact.userId()).stream()
                .filter(c -> forgotten.covers(c.text, profile.decode(c.embedding)))
                .forEach(PromotionCandidate::delete);
    }
}
