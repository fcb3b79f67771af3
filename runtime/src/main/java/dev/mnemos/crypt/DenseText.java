package dev.mnemos.crypt;

/**
 * Bytes as text of 7 bits a character ({@code U+0000} to {@code U+007F}, one byte each in UTF-8): 8/7 of the bytes, where
 * base64 takes 4/3. For stores that keep any byte (Redis, Lua) but take their values as Java strings.
 */
final class DenseText {

    private DenseText() {
    }

    static String encode(String mark, byte[] bytes) {
        StringBuilder out = new StringBuilder(mark.length() + (bytes.length * 8 + 6) / 7).append(mark);
        int pending = 0;
        int bits = 0;
        for (byte b : bytes) {
            pending = (pending << 8) | (b & 0xFF);
            bits += 8;
            while (bits >= 7) {
                bits -= 7;
                out.append((char) ((pending >>> bits) & 0x7F));
            }
            pending &= (1 << bits) - 1;
        }
        if (bits > 0) {
            out.append((char) ((pending << (7 - bits)) & 0x7F));
        }
        return out.toString();
    }

    /** The bytes {@code text} holds from {@code from} on; null when a character is not one of {@link #encode}'s. */
    static byte[] decode(String text, int from) {
        byte[] out = new byte[(text.length() - from) * 7 / 8];
        int pending = 0;
        int bits = 0;
        int n = 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c > 0x7F) {
                return null;
            }
            pending = (pending << 7) | c;
            bits += 7;
            if (bits >= 8) {
                bits -= 8;
                if (n < out.length) {
                    out[n++] = (byte) (pending >>> bits);
                }
                pending &= (1 << bits) - 1;
            }
        }
        return out;
    }
}
