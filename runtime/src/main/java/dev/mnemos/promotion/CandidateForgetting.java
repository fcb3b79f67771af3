package dev.mnemos.promotion;

import dev.mnemos.profile.FactEmbeddings;
import dev.mnemos.profile.FactText;
import dev.mnemos.profile.ForgetAsked;
import dev.mnemos.profile.ProfileConfig;
import dev.mnemos.profile.ProfilePromotions;
import dev.mnemos.profile.ProfileTransaction;
import dev.mnemos.profile.WriteContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.transaction.Transactional;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A "forget …" instruction reaches the user's promotion candidates, whatever their status (a rejected one keeps its
 * text otherwise): each one whose text holds the target, or else, when the instruction forgot no fact, the one
 * closest to it when it is as close as a fact must be to be forgotten ({@link ProfileConfig#forgetSimilarity()}),
 * is forgotten as a fact is ({@link ProfileTransaction#forgetText}: a
 * tombstone, its copies in candidates, archives and live sessions, a FORGET event without the text), under the
 * user's lock.
 */
@ApplicationScoped
public class CandidateForgetting {

    private final ProfilePromotions profile;
    private final ProfileTransaction transaction;
    private final ProfileConfig config;

    public CandidateForgetting(ProfilePromotions profile, ProfileTransaction transaction, ProfileConfig config) {
        this.profile = profile;
        this.transaction = transaction;
        this.config = config;
    }

    @Transactional
    void onForget(@Observes ForgetAsked asked) {
        profile.lock(asked.userId());
        List<PromotionCandidate> all = PromotionCandidate.list("userId", asked.userId());
        if (all.isEmpty()) {
            return;
        }
        String needle = FactText.normalise(asked.target());
        Map<String, PromotionCandidate> matched = new LinkedHashMap<>();
        all.stream().filter(c -> needle.length() >= 2 && FactText.normalise(c.text).contains(needle))
                .forEach(c -> matched.putIfAbsent(FactText.normalise(c.text), c));
        if (matched.isEmpty() && !asked.forgotFact()) {
            nearest(all, asked.target()).ifPresent(c -> matched.put(FactText.normalise(c.text), c));
        }
        WriteContext ctx = WriteContext.direct(asked.userId(), asked.actor(),
                "forgotten at the user's request (a promotion candidate)");
        for (PromotionCandidate c : matched.values()) {
            if (PromotionCandidate.count("userId = ?1 and id = ?2", asked.userId(), c.id) > 0) {
                asked.report().accept(transaction.forgetText(ctx, c.slot, c.text, c.embedding));
            }
        }
    }

    /** As for a fact: the one candidate closest to the target, when it is close enough. */
    private Optional<PromotionCandidate> nearest(List<PromotionCandidate> all, String target) {
        float[] vector = profile.embed(target);
        if (vector == null) {
            return Optional.empty();
        }
        return all.stream().filter(c -> c.embedding != null)
                .map(c -> Map.entry(c, FactEmbeddings.cosine(vector, profile.decode(c.embedding))))
                .filter(e -> e.getValue() >= config.forgetSimilarity())
                .max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
    }
}
