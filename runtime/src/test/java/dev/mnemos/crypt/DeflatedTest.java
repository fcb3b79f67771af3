package dev.mnemos.crypt;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a text is sealed as: large compressible texts deflated behind a mark no UTF-8 holds, everything else as UTF-8. */
class DeflatedTest {

    @Test
    void aLargeCompressibleTextIsDeflatedAndReadsBack() {
        String archive = "{\"events\":["
                + "{\"type\":\"PATCH\",\"patch\":{\"goal\":\"Trip to Bergen, fjords by train \u00e6\u00f8\u00e5\"}},"
                        .repeat(100)
                + "]}";
        byte[] packed = Deflated.pack(archive);

        assertThat(packed[0]).isEqualTo(Deflated.MARK);
        assertThat(packed.length).isLessThan(archive.getBytes(StandardCharsets.UTF_8).length / 5);
        assertThat(Deflated.unpack(packed)).isEqualTo(archive);
    }

    @Test
    void shortTextsStayTheirUtf8AndUtf8ReadsAsItDid() {
        String shortText = "Prefers window seats \u2708";
        StringBuilder noise = new StringBuilder();
        Random random = new Random(7);
        while (noise.length() < 4 * Deflated.FROM) {
            noise.append((char) (0x4E00 + random.nextInt(0x5000))); // CJK characters at random
        }
        for (String text : new String[] { shortText, "" }) {
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            assertThat(Deflated.pack(text)).isEqualTo(utf8);
            assertThat(Deflated.unpack(utf8)).isEqualTo(text);
        }
        // random text: deflated only when that is smaller, and read back either way
        byte[] utf8 = noise.toString().getBytes(StandardCharsets.UTF_8);
        byte[] packed = Deflated.pack(noise.toString());
        assertThat(packed.length).isLessThanOrEqualTo(utf8.length);
        assertThat(Deflated.unpack(packed)).isEqualTo(noise.toString());
        assertThat(Deflated.unpack(utf8)).isEqualTo(noise.toString());
    }

    @Test
    void deflatedBytesCutShortAreRefusedNotReadAsText() {
        byte[] packed = Deflated.pack("plan line for step 7\n".repeat(100));
        assertThatThrownBy(() -> Deflated.unpack(Arrays.copyOf(packed, packed.length / 2)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
