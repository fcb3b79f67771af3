package dev.mnemos.injection.block;

/**
 * A tokenizer-free token estimate that errs on the high side for the common BPE vocabularies:
 * one token per CJK, kana, hangul or emoji code point, one per four other characters. Used for
 * budgets only; exact counts depend on the model.
 */
public final class TokenEstimator {

    private TokenEstimator() {
    }

    public static int estimate(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        int wide = 0;
        int narrow = 0;
        for (int i = 0; i < text.length();) {
            int cp = text.codePointAt(i);
            if (isWide(cp)) {
                wide++;
            } else {
                narrow++;
            }
            i += Character.charCount(cp);
        }
        return wide + (narrow + 3) / 4;
    }

    /** The longest prefix of {@code text} whose estimate is at most {@code maxTokens}. */
    public static String prefix(String text, int maxTokens) {
        int wide = 0;
        int narrow = 0;
        int end = 0;
        while (end < text.length()) {
            int cp = text.codePointAt(end);
            int w = wide + (isWide(cp) ? 1 : 0);
            int n = narrow + (isWide(cp) ? 0 : 1);
            if (w + (n + 3) / 4 > maxTokens) {
                break;
            }
            wide = w;
            narrow = n;
            end += Character.charCount(cp);
        }
        return text.substring(0, end);
    }

    /** The longest suffix of {@code text} whose estimate is at most {@code maxTokens}. */
    public static String suffix(String text, int maxTokens) {
        int wide = 0;
        int narrow = 0;
        int start = text.length();
        while (start > 0) {
            int cp = text.codePointBefore(start);
            int w = wide + (isWide(cp) ? 1 : 0);
            int n = narrow + (isWide(cp) ? 0 : 1);
            if (w + (n + 3) / 4 > maxTokens) {
                break;
            }
            wide = w;
            narrow = n;
            start -= Character.charCount(cp);
        }
        return text.substring(start);
    }

    static boolean isWide(int cp) {
        if (cp < 0x2E80) {
            return false;
        }
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL
                || cp >= 0x1F000 || (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFF00 && cp <= 0xFFEF);
    }
}
