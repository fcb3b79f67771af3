package dev.mnemos.promotion;

import dev.mnemos.injection.TurnOverride;
import dev.mnemos.profile.Category;
import dev.mnemos.profile.FactText;
import dev.mnemos.profile.SlotRules;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;

/**
 * Something learned in a session that might belong in the profile: an observation, or a fact the
 * extraction model found in the user's own messages. {@code words} is what the user said (the
 * evidence when there is one, plus the text) and is what markers are looked for in; {@code embedding}
 * (may be null) recognises the same preference worded differently in another session.
 */
public record Candidate(String observationId, String text, Category category, String slot, Scope scope,
        boolean explicit, String words, float[] embedding) {

    public Candidate(String observationId, String text, Category category, String slot, Scope scope,
            boolean explicit, String words) {
        this(observationId, text, category, slot, scope, explicit, words, null);
    }

    public Candidate withEmbedding(float[] vector) {
        return new Candidate(observationId, text, category, slot, scope, explicit, words, vector);
    }

    public static Candidate of(Observation o) {
        var detected = SlotRules.detect(o.text());
        String slot = o.slot() != null && !o.slot().isBlank() ? o.slot() : detected.map(SlotRules.Slot::name).orElse(null);
        Category category = switch (o.kind()) {
            case FACT -> Category.FACT;
            case INSTRUCTION -> detected.map(SlotRules.Slot::category).orElse(Category.INSTRUCTION);
            case PREFERENCE -> detected.map(SlotRules.Slot::category).orElse(Category.PREFERENCE);
        };
        String words = o.evidence() == null ? o.text() : o.text() + "\n" + o.evidence();
        return new Candidate(o.id(), o.text(), category, slot, o.scope(), o.explicit(), words);
    }

    /**
     * One clause of an observation that holds several ({@link Clauses}): its own text, the words it
     * is judged by, and the slot its own words name (the observation's slot only when the clause names
     * it too).
     */
    public static Candidate of(Observation o, String clause) {
        var detected = SlotRules.detect(clause);
        String slot = detected.map(SlotRules.Slot::name).orElse(null);
        Category category = o.kind() == Observation.Kind.FACT ? Category.FACT
                : detected.map(SlotRules.Slot::category)
                        .orElse(o.kind() == Observation.Kind.INSTRUCTION ? Category.INSTRUCTION : Category.PREFERENCE);
        return new Candidate(o.id(), clause, category, slot, o.scope(), o.explicit(), clause);
    }

    /** This turn's override of a profile preference, recorded by the injection step: never promoted. */
    public boolean override() {
        return observationId != null && observationId.startsWith(TurnOverride.OBSERVATION_PREFIX);
    }

    /** What counts as "the same preference" across sessions: the slot and normalised text. */
    public String key() {
        return (slot == null ? "" : slot + "=") + FactText.normalise(text);
    }
}
