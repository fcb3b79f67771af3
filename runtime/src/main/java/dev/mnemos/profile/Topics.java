package dev.mnemos.profile;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Word overlap between two statements, for when embeddings are off (or to confirm them): normalised
 * tokens — Latin-script words of three letters or more with a plural or verb ending cut, and
 * overlapping pairs of CJK characters. Pure.
 */
public final class Topics {

    private static final Pattern WORD = Pattern
            .compile("\\p{IsLatin}{3,}|[\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}]+|\\p{L}{3,}");
    private static final Pattern CJK = Pattern.compile("[\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}]+");
    private static final Set<String> COMMON = Set.of("the", "and", "for", "with", "you", "your", "are", "was", "that", "this",
            "all", "any", "please", "but", "have", "has", "into", "from", "our", "its", "der", "die", "das", "und", "les",
            "des", "por", "para", "con", "los", "las", "une", "est", "ist");

    private Topics() {
    }

    /** The tokens of {@code text}. */
    public static Set<String> tokens(String text) {
        Set<String> tokens = new LinkedHashSet<>();
        Matcher m = WORD.matcher(FactText.normalise(text));
        while (m.find()) {
            String word = m.group();
            if (CJK.matcher(word).matches()) {
                for (int i = 0; i + 1 < word.length() || i == 0 && word.length() == 1; i++) {
                    tokens.add(word.length() == 1 ? word : word.substring(i, i + 2));
                }
            } else if (!COMMON.contains(word)) {
                tokens.add(stem(word));
            }
        }
        return tokens;
    }

    /**
     * How much two texts share: shared tokens over the smaller token set (0 when either has none).
     * 1.0 when one's words are all in the other.
     */
    public static double overlap(String a, String b) {
        Set<String> ta = tokens(a);
        Set<String> tb = tokens(b);
        if (ta.isEmpty() || tb.isEmpty()) {
            return 0;
        }
        long shared = ta.stream().filter(tb::contains).count();
        return (double) shared / Math.min(ta.size(), tb.size());
    }

    /** Shared tokens over all tokens of both (Jaccard); 0 when both are empty. */
    public static double similarity(String a, String b) {
        Set<String> ta = tokens(a);
        Set<String> tb = tokens(b);
        Set<String> union = new LinkedHashSet<>(ta);
        union.addAll(tb);
        return union.isEmpty() ? 0 : (double) ta.stream().filter(tb::contains).count() / union.size();
    }

    private static String stem(String word) {
        for (String ending : new String[] { "ing", "ed", "s" }) {
            if (word.length() > ending.length() + 2 && word.endsWith(ending)) {
                return word.substring(0, word.length() - ending.length());
            }
        }
        return word;
    }
}
