package dev.mnemos.profile;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/** Text rules of profile facts: normalisation for duplicate detection, and the length cap. */
public final class FactText {

    private static final Pattern PUNCTUATION = Pattern.compile("[\\p{P}\\p{S}]+");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private FactText() {
    }

    /**
     * The form two texts share when they say the same thing: Unicode NFKC, lower case, punctuation
     * and symbols removed, whitespace collapsed. Chinese and other scripts are kept as they are.
     */
    public static String normalise(String text) {
        String folded = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        return SPACES.matcher(PUNCTUATION.matcher(folded).replaceAll(" ")).replaceAll(" ").trim();
    }

    /** {@code text} cut to {@code max} characters without splitting a surrogate pair. */
    public static String cap(String text, int max) {
        String trimmed = text.strip();
        if (trimmed.length() <= max) {
            return trimmed;
        }
        int end = Character.isHighSurrogate(trimmed.charAt(max - 1)) ? max - 1 : max;
        return trimmed.substring(0, end);
    }
}
