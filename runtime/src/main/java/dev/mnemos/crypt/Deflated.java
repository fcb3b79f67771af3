package dev.mnemos.crypt;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The bytes a text is sealed as: its UTF-8, or, from {@link #FROM} bytes on and when it is smaller so, {@link #MARK}
 * and the text deflated (the JDK's zlib, raw). Postgres compresses a large plain value itself (TOAST) but cannot
 * compress a sealed one, and an archived session's JSON then took eight times its plain bytes; so the text is
 * compressed before it is sealed. The mark is a byte no UTF-8 text holds, inside the ciphertext: values sealed before
 * (their UTF-8) read as they did, and a stored value does not show whether it was deflated. Its length shows, as a
 * compressed file's does, how well its text compressed.
 */
final class Deflated {

    /** Texts shorter than this (in UTF-8) are sealed as they are: a short text gains little and costs the call. */
    static final int FROM = 512;
    /** Leads a deflated text's bytes: never a byte of UTF-8. */
    static final byte MARK = (byte) 0xFF;
    /**
     * Deflaters and inflaters kept for the next text, reset: making one allocates zlib's window and tables, which cost
     * more than deflating a text of a few kilobytes. More are made when these are in use, then ended. The one put back
     * last is taken first: its window and tables (a quarter of a megabyte for a deflater) are the likeliest to be in the
     * CPU's caches.
     */
    private static final BlockingDeque<Deflater> DEFLATERS = new LinkedBlockingDeque<>(16);
    private static final BlockingDeque<Inflater> INFLATERS = new LinkedBlockingDeque<>(16);

    private Deflated() {
    }

    static byte[] pack(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        if (utf8.length < FROM) {
            return utf8;
        }
        Deflater kept = DEFLATERS.pollFirst();
        Deflater deflater = kept != null ? kept : new Deflater(Deflater.BEST_SPEED, true);
        try {
            deflater.setInput(utf8);
            deflater.finish();
            byte[] out = new byte[utf8.length];
            out[0] = MARK;
            int size = 1;
            while (!deflater.finished() && size < out.length) {
                size += deflater.deflate(out, size, out.length - size);
            }
            return deflater.finished() && size < utf8.length ? Arrays.copyOf(out, size) : utf8;
        } finally {
            deflater.reset();
            if (!DEFLATERS.offerFirst(deflater)) {
                deflater.end();
            }
        }
    }

    /** The text of bytes {@link #pack} made. @throws IllegalArgumentException when deflated bytes do not inflate */
    static String unpack(byte[] bytes) {
        if (bytes.length == 0 || bytes[0] != MARK) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        Inflater kept = INFLATERS.pollFirst();
        Inflater inflater = kept != null ? kept : new Inflater(true);
        try {
            inflater.setInput(bytes, 1, bytes.length - 1);
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length * 4);
            byte[] chunk = new byte[Math.max(1024, bytes.length * 4)];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("deflated text ends early");
                }
                out.write(chunk, 0, n);
            }
            return out.toString(StandardCharsets.UTF_8);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("deflated text does not inflate", e);
        } finally {
            inflater.reset();
            if (!INFLATERS.offerFirst(inflater)) {
                inflater.end();
            }
        }
    }
}
