package dev.mnemos.profile;

import java.util.List;
import java.util.Set;

/**
 * What a writer wants: the active facts it read ({@code base}), the active facts it wants
 * ({@code incoming}), and facts to forget outright (text removed from every table).
 */
public record ChangeSet(List<FactDraft> base, List<FactDraft> incoming, Set<Long> forget) {

    public ChangeSet {
        base = List.copyOf(base);
        incoming = List.copyOf(incoming);
        forget = Set.copyOf(forget);
    }
}
