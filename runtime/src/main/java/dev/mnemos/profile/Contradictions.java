package dev.mnemos.profile;

import java.util.List;
import java.util.Optional;

/**
 * Finds the existing fact without a slot that a new one contradicts: the same topic — embeddings of
 * the two topics at least {@link ProfileConfig#contradictionSimilarity()} alike, or (always, and
 * alone when embeddings are off) at least {@link #OVERLAP} of the smaller topic's words shared — and
 * opposite polarity. Slotted facts are settled by their slot instead.
 */
final class Contradictions {

    /** Share of the smaller topic's tokens both topics must hold, without embeddings. */
    static final double OVERLAP = 0.6;

    private final FactEmbeddings embeddings;
    private final double similarity;

    Contradictions(FactEmbeddings embeddings, double similarity) {
        this.embeddings = embeddings;
        this.similarity = similarity;
    }

    /** The active fact among {@code facts} that {@code incoming} contradicts, if any. */
    Optional<FactDraft> contradicted(FactDraft incoming, List<FactDraft> facts, Stance stance) {
        if (!stance.judges() || incoming.slot() != null) {
            return Optional.empty();
        }
        boolean negative = stance.negative(incoming.text());
        String topic = stance.topic(incoming.text());
        float[] vector = null;
        for (FactDraft old : facts) {
            if (old.isNew() || old.slot() != null || stance.negative(old.text()) == negative) {
                continue;
            }
            String oldTopic = stance.topic(old.text());
            if (Topics.overlap(topic, oldTopic) >= OVERLAP) {
                return Optional.of(old);
            }
            vector = vector != null ? vector : embeddings.embed(topic);
            float[] oldVector = vector == null ? null : embeddings.embed(oldTopic);
            if (oldVector != null && FactEmbeddings.cosine(vector, oldVector) >= similarity) {
                return Optional.of(old);
            }
        }
        return Optional.empty();
    }
}
