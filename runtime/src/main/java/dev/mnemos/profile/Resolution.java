package dev.mnemos.profile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Settles a merged fact list: a new fact whose normalised text equals a kept fact is a duplicate
 * (the kept fact gains evidence instead); a new fact on a slot replaces the fact holding that slot,
 * and the last new fact on a slot wins. Pure.
 *
 * @param keep the facts to be active afterwards, in order
 * @param duplicates id of an existing fact → how many new duplicates of it were dropped
 */
public record Resolution(List<FactDraft> keep, Map<Long, Integer> duplicates) {

    public static Resolution of(List<FactDraft> merged) {
        Map<String, FactDraft> byText = new LinkedHashMap<>();
        Map<Long, Integer> duplicates = new HashMap<>();
        for (FactDraft draft : merged) {
            FactDraft same = byText.get(draft.normalised());
            if (same == null) {
                byText.put(draft.normalised(), draft);
            } else if (draft.isNew() && same.id() != null) {
                duplicates.merge(same.id(), 1, Integer::sum);
            } else if (!draft.isNew() && same.isNew()) {
                byText.put(draft.normalised(), draft);
                duplicates.merge(draft.id(), 1, Integer::sum);
            }
        }
        return new Resolution(bySlot(new ArrayList<>(byText.values())), Map.copyOf(duplicates));
    }

    /** Per slot, the last new fact wins (else the first existing one) and replaces the existing holder. */
    private static List<FactDraft> bySlot(List<FactDraft> facts) {
        Map<String, List<FactDraft>> slots = new LinkedHashMap<>();
        facts.stream().filter(f -> f.slot() != null)
                .forEach(f -> slots.computeIfAbsent(f.slot(), k -> new ArrayList<>()).add(f));
        List<FactDraft> result = new ArrayList<>();
        for (FactDraft fact : facts) {
            if (fact.slot() == null) {
                result.add(fact);
            } else if (slots.get(fact.slot()).get(0) == fact) {
                result.add(winner(slots.get(fact.slot())));
            }
        }
        return result;
    }

    private static FactDraft winner(List<FactDraft> contenders) {
        FactDraft winner = contenders.get(0);
        for (FactDraft f : contenders) {
            if (f.isNew()) {
                winner = f;
            }
        }
        for (FactDraft loser : contenders) {
            if (loser != winner && !loser.isNew() && winner.isNew()) {
                winner = winner.replacing(winner.replaces() != null ? winner.replaces() : loser.id(), loser.taskState());
            }
        }
        return winner;
    }
}
