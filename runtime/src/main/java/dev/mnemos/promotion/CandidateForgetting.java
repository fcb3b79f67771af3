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

/**
 * A "forget …" instruction reaches the user's promotion candidates, whatever their status (a rejected one keeps its
 * text otherwise): each one whose text holds the target, or is as close to it as a fact must be to be forgotten
 * ({@link ProfileConfig#forgetSimilarity()}), is forgotten as a fact is ({@link ProfileTransaction#forgetText}: a
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
        float[] target = profile.embed(asked.target());
        Map<String, PromotionCandidate> matched = new LinkedHashMap<>();
        for (PromotionCandidate c : all) {
            boolean contains = needle.length() >= 2 && FactText.normalise(c.text).contains(needle);
            boolean close = target != null && c.embedding != null
                    && FactEmbeddings.cosine(target, profile.decode(c.embedding)) >= config.forgetSimilarity();
            if (contains || close) {
                matched.putIfAbsent(FactText.normalise(c.text), c);
            }
        }
        WriteContext ctx = WriteContext.direct(asked.userId(), asked.actor(),
                "forgotten at the user's request (a promotion candidate)");
        for (PromotionCandidate c : matched.values()) {
            if (PromotionCandidate.count("userId = ?1 and id = ?2", asked.userId(), c.id) > 0) {
                transaction.forgetText(ctx, c.slot, c.text, c.embedding);
            }
        }
    }
}
