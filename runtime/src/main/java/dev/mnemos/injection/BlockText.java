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
        if (isPlain(value)) {
            return '"' + value + '"';
        }
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || isInvisibleControl(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static boolean isPlain(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || isInvisibleControl(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isInvisibleControl(char c) {
        return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029
                || c == 0x200E || c == 0x200F || c == 0x7F;
    }
}
