package dev.mnemos.crypt;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * A memo of at most {@code most} entries in two generations of hash maps: a new entry goes into the young one; when
 * that holds half of {@code most}, the old one is dropped and the young one becomes old. An entry found in the old
 * generation is brought into the young one, so what is still used stays.
 * <p>
 * For the memos of sealed session values ({@link SealedSessionValues}), which take several new entries at every step
 * once full: a Caffeine cache there evicted one entry per put through its policy (deques and a frequency sketch out of
 * the CPU's caches, on the writing thread or by waking one of the common pool), which made a step's first sealing
 * several times its cipher's cost. Here a put is a hash map's put, and an eviction drops half of the entries at once.
 * Lost entries (two threads turning a generation over at once) only cost a decryption.
 */
final class Generations<K, V> {

    private final int half;
    private volatile Map<K, V> young = new ConcurrentHashMap<>();
    private volatile Map<K, V> old = new ConcurrentHashMap<>();

    Generations(int most) {
        this.half = Math.max(1, most / 2);
    }

    /** The value of {@code key}, or null. */
    V get(K key) {
        V value = young.get(key);
        if (value == null) {
            value = old.get(key);
            if (value != null) {
                put(key, value);
            }
        }
        return value;
    }

    void put(K key, V value) {
        Map<K, V> current = young;
        current.put(key, value);
        if (current.size() >= half) {
            synchronized (this) {
                if (young == current) {
                    old = current;
                    young = new ConcurrentHashMap<>();
                }
            }
        }
    }

    /** Drops the entries whose keys pass {@code test}. */
    void removeIf(Predicate<K> test) {
        young.keySet().removeIf(test);
        old.keySet().removeIf(test);
    }

    /** How many entries' keys pass {@code test} (an entry in both generations counts twice). */
    long count(Predicate<K> test) {
        return young.keySet().stream().filter(test).count() + old.keySet().stream().filter(test).count();
    }
}
