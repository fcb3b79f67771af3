package dev.mnemos.profile;

/**
 * A fact as a writer wants it: an existing fact ({@code id} set) or a new one ({@code id} null).
 * {@code replaces} names the fact a new one corrects (its UPDATE); {@code embedding} is null until
 * computed. Identity for the three-way merge is {@link #key()}.
 */
public record FactDraft(Long id, Category category, String slot, String text, double confidence,
        SourceKind sourceKind, String sessionId, TaskState taskState, Long replaces,
        float[] embedding) {

    public FactDraft {
        category = category == null ? Category.FACT : category;
        slot = slot == null || slot.isBlank() ? null : slot.strip();
    }

    public static FactDraft of(ProfileFact f) {
        return new FactDraft(f.id, f.category, f.slot, f.text, f.confidence, f.sourceKind, f.sourceSessionId,
                f.taskState, null, FactEmbeddings.decode(f.embedding));
    }

    /**
     * A new fact as a writer states it: its text capped, its slot and category detected when not
     * given, its confidence the direct one when not given.
     */
    static FactDraft of(NewFact fact, SourceKind kind, ProfileConfig config) {
        String text = FactText.cap(fact.text(), config.maxFactChars());
        var detected = SlotRules.detect(text);
        String slot = fact.slot() != null ? fact.slot() : detected.map(SlotRules.Slot::name).orElse(null);
        Category category = fact.category() != null ? fact.category()
                : detected.map(SlotRules.Slot::category).orElse(Category.FACT);
        double confidence = fact.confidence() != null ? fact.confidence() : config.directConfidence();
        return new FactDraft(null, category, slot, text, confidence, kind, null, fact.taskState(), null, null);
    }

    /** A new fact. */
    public static FactDraft fresh(Category category, String slot, String text, double confidence,
            SourceKind kind, String sessionId) {
        return new FactDraft(null, category, slot, text, confidence, kind, sessionId, null, null, null);
    }

    public boolean isNew() {
        return id == null;
    }

    /** Existing facts are themselves; new facts are their normalised text. */
    public String key() {
        return id != null ? "#" + id : "=" + FactText.normalise(text);
    }

    public String normalised() {
        return FactText.normalise(text);
    }

    public FactDraft replacing(Long oldId, TaskState oldState) {
        return new FactDraft(id, category, slot, text, confidence, sourceKind, sessionId,
                TaskState.carry(oldState, taskState), oldId, embedding);
    }

    /** This fact in the words of {@code other}, a fact it says again: the writer counts it as evidence of that one. */
    public FactDraft saying(String other) {
        return new FactDraft(id, category, slot, other, confidence, sourceKind, sessionId, taskState, replaces, null);
    }

    public FactDraft withEmbedding(float[] vector) {
        return new FactDraft(id, category, slot, text, confidence, sourceKind, sessionId, taskState, replaces, vector);
    }
}
