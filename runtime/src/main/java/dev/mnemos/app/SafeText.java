package dev.mnemos.app;

/**
 * The rule every transport holds stored text to: no NUL (U+0000), which Postgres cannot store and no text needs, and
 * no unpaired surrogate, which would be stored as {@code ?}.
 */
public final class SafeText {

    private SafeText() {
    }

    /** The index of the first NUL or unpaired surrogate in {@code text}, or -1. */
    public static int firstUnsafe(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\0' || Character.isLowSurrogate(c)) {
                return i;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return i;
                }
                i++;
            }
        }
        return -1;
    }
}
