package dev.mnemos.profile;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Merges what a writer wants ({@code incoming}, computed from {@code base}, the list it read) into
 * what is there now ({@code current}): incoming items that are new relative to base or still
 * current are kept, current items added after base are kept, base items the writer deleted are
 * dropped, and a concurrent delete is not undone. Items are identified by {@code key}; for a key
 * kept on both sides the current item wins, so concurrent evidence updates survive. Pure.
 */
public final class ThreeWayMerge {

    private ThreeWayMerge() {
    }

    public static <T, K> List<T> merge(List<T> base, List<T> incoming, List<T> current, Function<T, K> key) {
        Set<K> baseKeys = keys(base, key);
        Map<K, T> currentByKey = current.stream()
                .collect(Collectors.toMap(key, t -> t, (a, b) -> a, LinkedHashMap::new));
        Map<K, T> result = new LinkedHashMap<>();
        for (T item : incoming) {
            K k = key.apply(item);
            if (!baseKeys.contains(k)) {
                result.putIfAbsent(k, currentByKey.getOrDefault(k, item));
            } else if (currentByKey.containsKey(k)) {
                result.putIfAbsent(k, currentByKey.get(k));
            }
        }
        currentByKey.forEach((k, item) -> {
            if (!baseKeys.contains(k)) {
                result.putIfAbsent(k, item);
            }
        });
        return List.copyOf(result.values());
    }

    private static <T, K> Set<K> keys(Collection<T> items, Function<T, K> key) {
        return items.stream().map(key).collect(Collectors.toSet());
    }
}
