package dev.mnemos.crypt;

import java.nio.charset.StandardCharsets;

/**
 * Bytes as text of 7 bits a character ({@code U+0000} to {@code U+007F}, one byte each in UTF-8): 8/7 of the bytes, where
 * base64 takes 4/3. For stores that keep any byte (Redis, Lua) but take their values as Java strings.
 * <p>
 * The bits of the bytes in order, 7 to a character, the last one padded with zero bits. Seven bytes are exactly eight
 * characters, so whole groups of seven go through a {@code long} and only the last few bytes bit by bit.
 */
final class DenseText {

    private DenseText() {
    }

    static String encode(String mark, byte[] bytes) {
        int marked = mark.length();
        byte[] out = new byte[marked + (bytes.length * 8 + 6) / 7];
        for (int i = 0; i < marked; i++) {
            out[i] = (byte) mark.charAt(i);
        }
        int n = marked;
        int whole = bytes.length - bytes.length % 7;
        int i = 0;
        for (; i < whole; i += 7) {
            long group = 0;
            for (int b = 0; b < 7; b++) {
                group = (group << 8) | (bytes[i + b] & 0xFF);
            }
            for (int shift = 49; shift >= 0; shift -= 7) {
                out[n++] = (byte) ((group >>> shift) & 0x7F);
            }
        }
        int pending = 0;
        int bits = 0;
        for (; i < bytes.length; i++) {
            pending = (pending << 8) | (bytes[i] & 0xFF);
            bits += 8;
            while (bits >= 7) {
                bits -= 7;
                out[n++] = (byte) ((pending >>> bits) & 0x7F);
            }
            pending &= (1 << bits) - 1;
        }
        if (bits > 0) {
            out[n] = (byte) ((pending << (7 - bits)) & 0x7F);
        }
        // every byte is below 0x80, so ISO-8859-1 maps each to its character (a copy, no decoding)
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /** The bytes {@code text} holds from {@code from} on; null when a character is not one of {@link #encode}'s. */
    static byte[] decode(String text, int from) {
        int length = text.length() - from;
        byte[] out = new byte[length * 7 / 8];
        int n = 0;
        int i = from;
        int whole = from + length - length % 8;
        for (; i < whole; i += 8) {
            long group = 0;
            int seen = 0;
            for (int c = 0; c < 8; c++) {
                char ch = text.charAt(i + c);
                seen |= ch;
                group = (group << 7) | ch;
            }
            if (seen > 0x7F) {
                return null;
            }
            for (int shift = 48; shift >= 0; shift -= 8) {
                out[n++] = (byte) (group >>> shift);
            }
        }
        int pending = 0;
        int bits = 0;
        for (; i < text.length(); i++) {
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
