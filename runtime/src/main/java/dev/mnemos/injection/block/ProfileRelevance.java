package dev.mnemos.injection.block;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.injection.ProfileLine;

import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Orders profile facts for the block: most words shared with the goal and the current message
 * first (words of three letters or more; pairs of characters for Chinese and Japanese), then by
 * confidence, then in the order given.
 */
final class ProfileRelevance {

    /** The words of recently ordered facts, by text (a fact's text never changes; a changed fact is a new text). */
    private static final Cache<String, Set<String>> FACT_WORDS = Caffeine.newBuilder().maximumSize(10_000)
            .executor(Runnable::run).build();

    private ProfileRelevance() {
    }

    static List<ProfileLine> order(List<ProfileLine> facts, String goal, String message) {
        Set<String> query = words((goal == null ? "" : goal) + " " + (message == null ? "" : message));
        // each fact's words are found once, not at every comparison of the sort, and remembered: a
        // user's facts are the same from one step to the next
        Map<ProfileLine, Integer> shared = new IdentityHashMap<>(facts.size() * 2);
        facts.forEach(f -> shared.put(f, overlap(FACT_WORDS.get(f.text(), ProfileRelevance::words), query)));
        Comparator<ProfileLine> byOverlap = Comparator.comparingInt(f -> -shared.get(f));
        return facts.stream().sorted(byOverlap.thenComparing(f -> -f.confidence())).toList();
    }

    static Set<String> words(String text) {
        Set<String> words = new HashSet<>();
        StringBuilder word = new StringBuilder();
        String lower = text.toLowerCase(Locale.ROOT);
        int previousWide = -1;
        for (int i = 0; i < lower.length();) {
            int cp = lower.codePointAt(i);
            i += Character.charCount(cp);
            if (TokenEstimator.isWide(cp)) {
                if (previousWide >= 0) {
                    words.add(new String(Character.toChars(previousWide)) + new String(Character.toChars(cp)));
                }
                previousWide = cp;
                flush(word, words);
            } else if (Character.isLetterOrDigit(cp)) {
                word.appendCodePoint(cp);
                previousWide = -1;
            } else {
                flush(word, words);
                previousWide = -1;
            }
        }
        flush(word, words);
        return words;
    }

    private static void flush(StringBuilder word, Set<String> words) {
        if (word.length() >= 3) {
            words.add(word.toString());
        }
        word.setLength(0);
    }

    private static int overlap(Set<String> a, Set<String> b) {
        int n = 0;
        for (String w : a) {
            if (b.contains(w)) {
                n++;
            }
        }
        return n;
    }
}
