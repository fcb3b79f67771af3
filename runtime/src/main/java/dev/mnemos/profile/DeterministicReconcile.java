package dev.mnemos.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reconcile without a model: "forget …" removes the matching fact (slot, containment, or the most
 * similar one above {@link ProfileConfig#forgetSimilarity()}); "I no longer …" replaces the matching
 * fact (the negation is recorded, the old fact superseded), or is kept as a fact when nothing matches; anything else is
 * appended, and the writer drops
 * exact duplicates and lets a slot's new value supersede the old.
 */
final class DeterministicReconcile {

    private final FactEmbeddings embeddings;
    private final ProfileConfig config;
    private final SourceKind kind;
    private final double confidence;

    DeterministicReconcile(FactEmbeddings embeddings, ProfileConfig config, SourceKind kind, double confidence) {
        this.embeddings = embeddings;
        this.config = config;
        this.kind = kind;
        this.confidence = confidence;
    }

    ChangeSet plan(List<FactDraft> base, Instruction instruction) {
        List<FactDraft> incoming = new ArrayList<>(base);
        if (instruction instanceof Instruction.Forget forget) {
            Optional<FactDraft> match = match(base, forget.target());
            return new ChangeSet(base, incoming, match.map(f -> Set.of(f.id())).orElse(Set.of()));
        }
        if (instruction instanceof Instruction.NoLonger noLonger) {
            Optional<FactDraft> match = match(base, noLonger.subject());
            if (match.isPresent()) {
                // the negation is itself worth knowing ("I no longer eat meat"): it replaces the fact, not just deletes it
                incoming.remove(match.get());
                incoming.add(draft(noLonger.original(), null, null).replacing(match.get().id(), match.get().taskState()));
                return new ChangeSet(base, incoming, Set.of());
            }
        }
        String text = instruction instanceof Instruction.Remember remember ? remember.text() : instruction.original();
        incoming.add(draft(text, null, null));
        return new ChangeSet(base, incoming, Set.of());
    }

    /** A new fact from {@code text} (cut to the cap), with the model's category and slot when valid, else detected. */
    FactDraft draft(String text, String category, String slot) {
        String capped = FactText.cap(text, config.maxFactChars());
        Optional<SlotRules.Slot> detected = SlotRules.detect(capped);
        String slotName = slot != null && slot.matches("[a-z][a-z0-9._-]{0,127}") ? slot
                : detected.map(SlotRules.Slot::name).orElse(null);
        Category cat = category(category).orElse(detected.map(SlotRules.Slot::category).orElse(Category.FACT));
        return FactDraft.fresh(cat, slotName, capped, confidence, kind, null).withEmbedding(embeddings.embed(capped));
    }

    private Optional<FactDraft> match(List<FactDraft> base, String target) {
        Optional<SlotRules.Slot> slot = SlotRules.detect(target);
        if (slot.isPresent()) {
            Optional<FactDraft> holder = base.stream().filter(f -> slot.get().name().equals(f.slot())).findFirst();
            if (holder.isPresent()) {
                return holder;
            }
        }
        String needle = FactText.normalise(target);
        Optional<FactDraft> contained = base.stream()
                .filter(f -> needle.length() >= 2 && f.normalised().contains(needle)).findFirst();
        if (contained.isPresent()) {
            return contained;
        }
        return FactEmbeddings.nearest(embeddings.embed(target), base, config.forgetSimilarity(), 1).stream()
                .map(FactEmbeddings.Scored::fact).findFirst();
    }

    private static Optional<Category> category(String value) {
        try {
            return value == null ? Optional.empty() : Optional.of(Category.valueOf(value.strip().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
