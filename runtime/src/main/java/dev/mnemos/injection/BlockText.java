package dev.mnemos.injection;

/**
 * Quotes stored text for the memory block so it stays data: a JSON string literal, with angle
 * brackets and bidirectional controls escaped too, so no stored value can close the quote, start a
 * new line, open or close the {@code <memory-data>} frame, or reorder what the reader sees.
 * Letters of every script, emoji and punctuation pass unchanged.
 */
public final class BlockText {

    private BlockText() {
    }

    public static String quote(String value) {
        // one pass; the text between characters to escape is copied in runs, not a character at a time
        StringBuilder out = null;
        int run = 0;
        for (int i = 0; i < value.length(); i++) {
            String escaped = escape(value.charAt(i));
            if (escaped != null) {
                if (out == null) {
                    out = new StringBuilder(value.length() + 16).append('"');
                }
                out.append(value, run, i).append(escaped);
                run = i + 1;
            }
        }
        if (out == null) {
            return '"' + value + '"';
        }
        return out.append(value, run, value.length()).append('"').toString();
    }

    /** What {@code c} is written as inside the quotes, or null when it stands for itself. */
    private static String escape(char c) {
        return switch (c) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            default -> c < 0x20 || c == '<' || c == '>' || isInvisibleControl(c) ? String.format("\\u%04x", (int) c)
                    : null;
        };
    }

    private static boolean isInvisibleControl(char c) {
        return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029
                || c == 0x200E || c == 0x200F || c == 0x7F;
    }
}
