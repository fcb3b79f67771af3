package dev.mnemos.crypt;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 7-bit text of bytes: the same characters as the bit-by-bit encoding values were stored with before groups of
 * seven bytes went through a {@code long}, back to the same bytes, for every length around a group's edges.
 */
class DenseTextTest {

    @Test
    void everyLengthEncodesAsTheBitStreamAndDecodesToItsBytes() {
        Random random = new Random(7);
        for (int length = 0; length <= 200; length++) {
            for (int round = 0; round < 20; round++) {
                byte[] bytes = new byte[length];
                random.nextBytes(bytes);
                if (round == 0) {
                    java.util.Arrays.fill(bytes, (byte) 0xFF);
                }
                String text = DenseText.encode("\u0002r", bytes);
                assertThat(text).as("length %d", length).isEqualTo(bitByBit("\u0002r", bytes));
                assertThat(text.chars().allMatch(c -> c < 0x80)).isTrue();
                assertThat(DenseText.decode(text, 2)).as("length %d", length).isEqualTo(bytes);
            }
        }
    }

    @Test
    void aCharacterAboveSevenBitsIsNotDenseText() {
        byte[] bytes = new byte[21];
        new Random(3).nextBytes(bytes);
        String text = DenseText.encode("", bytes);
        for (int at : new int[] { 0, 7, 12, text.length() - 1 }) {
            String altered = text.substring(0, at) + '\u00e9' + text.substring(at + 1);
            assertThat(DenseText.decode(altered, 0)).as("at %d", at).isNull();
        }
    }

    /** The encoding as it was first written: each byte's bits in turn, seven to a character, zero-padded at the end. */
    private static String bitByBit(String mark, byte[] bytes) {
        StringBuilder out = new StringBuilder(mark);
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
}
