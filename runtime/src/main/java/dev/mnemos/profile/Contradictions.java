package dev.mnemos.profile;

import java.util.List;
import java.util.Optional;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

/**
 * Finds the existing fact without a slot that a new one contradicts. With a configured reconcile model
 * it decides among the nearest facts (an UPDATE or DELETE names the fact replaced; "no change" keeps
 * them all); without one, or when it gives no usable answer: the same topic — embeddings of
 * the two topics at least {@link ProfileConfig#contradictionSimilarity()} alike, or (always, and
 * alone when embeddings are off) at least {@link #OVERLAP} of the smaller topic's words shared — and
 * opposite polarity. Slotted facts are settled by their slot instead.
 */
final class Contradictions {

    /** Asks the reconcile model which of the candidates a new fact replaces; empty without a usable answer. */
    interface Judge {
        Optional<Integer> replaced(List<String> candidates, String incoming);
    }

    private static final Pattern NUMBER = Pattern.compile("\\d+");
    /** Share of the smaller topic's tokens both topics must hold, without embeddings. */
    static final double OVERLAP = 0.6;

    private final FactEmbeddings embeddings;
    private final double similarity;
    private final Judge model;
    private final int candidates;

    /** @param model the reconcile model's judgement, or null without a configured model */
    Contradictions(FactEmbeddings embeddings, double similarity, Judge model, int candidates) {
        this.embeddings = embeddings;
        this.similarity = similarity;
        this.model = model;
        this.candidates = candidates;
    }

    /**
     * The active fact among {@code facts} that {@code incoming} contradicts, if any: the reconcile
     * model's UPDATE or DELETE of one of the nearest facts when a model is configured and answers,
     * else the words and embeddings of the topics.
     */
    Optional<FactDraft> contradicted(FactDraft incoming, List<FactDraft> facts, Stance stance) {
        if (incoming.slot() != null) {
            return Optional.empty();
        }
        List<FactDraft> slotless = facts.stream().filter(f -> !f.isNew() && f.slot() == null).toList();
        if (model != null && !slotless.isEmpty()) {
            List<FactDraft> near = FactEmbeddings.nearest(embeddings.embed(incoming.text()), slotless, 0, candidates)
                    .stream().map(FactEmbeddings.Scored::fact).toList();
            List<FactDraft> shown = near.isEmpty() ? slotless.subList(0, Math.min(candidates, slotless.size())) : near;
            Optional<Integer> id = model.replaced(shown.stream().map(FactDraft::text).toList(), incoming.text());
            if (id.isPresent()) {
                return id.get() >= 0 && id.get() < shown.size() ? Optional.of(shown.get(id.get())) : Optional.empty();
            }
        }
        return opposed(incoming, facts.stream().filter(f -> !f.isNew()).toList(), stance);
    }

    /**
     * The first of {@code drafts} (new facts of the same write) that {@code incoming} contradicts, by the words and
     * embeddings of their topics only: two statements of one session that cannot both hold.
     */
    Optional<FactDraft> contradictedAmong(FactDraft incoming, List<FactDraft> drafts, Stance stance) {
        return incoming.slot() != null ? Optional.empty() : opposed(incoming, drafts, stance);
    }

    /**
     * The fact among {@code facts} (active or new) that says what {@code incoming} says again: without a slot, the same
     * polarity and either the same topic words or texts whose embeddings are at least {@code duplicate} alike ("I do not
     * eat red meat" / "From now on I do not eat red meat"). Exact duplicates are settled by the writer.
     */
    Optional<FactDraft> repeated(FactDraft incoming, List<FactDraft> facts, Stance stance, double duplicate) {
        if (incoming.slot() != null || !stance.judges()) {
            return Optional.empty();
        }
        boolean negative = stance.negative(incoming.text());
        var topic = Topics.tokens(stance.topic(incoming.text()));
        float[] vector = incoming.embedding();
        for (FactDraft other : facts) {
            // topic words and embeddings leave numbers out: "kind 0" and "kind 1" say different things
            if (other.slot() != null || stance.negative(other.text()) != negative
                    || !numbers(incoming.text()).equals(numbers(other.text()))) {
                continue;
            }
            if (!topic.isEmpty() && topic.equals(Topics.tokens(stance.topic(other.text())))) {
                return Optional.of(other);
            }
            if (vector != null && other.embedding() != null && FactEmbeddings.cosine(vector, other.embedding()) >= duplicate) {
                return Optional.of(other);
            }
        }
        return Optional.empty();
    }

    /** The numbers {@code text} holds, in order. */
    private static List<String> numbers(String text) {
        return NUMBER.matcher(text).results().map(MatchResult::group).toList();
    }

    /** The first of {@code facts} without a slot on the same topic as {@code incoming} with the opposite polarity. */
    private Optional<FactDraft> opposed(FactDraft incoming, List<FactDraft> facts, Stance stance) {
        if (!stance.judges()) {
            return Optional.empty();
        }
        boolean negative = stance.negative(incoming.text());
        String topic = stance.topic(incoming.text());
        float[] vector = null;
        for (FactDraft old : facts) {
            if (old.slot() != null || stance.negative(old.text()) == negative) {
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
