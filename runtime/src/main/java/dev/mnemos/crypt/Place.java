package dev.mnemos.crypt;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Where a sealed value lives: its user, table and column, and the row when its key is known before the insert (an
 * archived session's id, a held request's id). It is the value's associated data, so a value copied to another user,
 * column or such row does not open.
 */
public record Place(String userId, String table, String column, String row) {

    private static final String VERSION = "mnemos v1";

    /** A place without a row key. */
    public static Place of(String userId, String table, String column) {
        return new Place(userId, table, column, null);
    }

    /**
     * The associated data: every part length-prefixed, so no two places give the same bytes ({@link DataOutputStream}'s
     * {@code writeUTF} of each; parts of ASCII letters, as user ids and names mostly are, are copied as they are).
     */
    byte[] associatedData() {
        if (userId == null) {
            throw new IllegalArgumentException("a sealed value of " + this + " needs its user");
        }
        String[] parts = { VERSION, table, column, userId, row == null ? "" : row };
        int size = 0;
        for (String part : parts) {
            if (!printableAscii(part)) {
                return written(parts);
            }
            size += 2 + part.length();
        }
        byte[] data = new byte[size];
        int at = 0;
        for (String part : parts) {
            data[at++] = (byte) (part.length() >>> 8);
            data[at++] = (byte) part.length();
            for (int i = 0; i < part.length(); i++) {
                data[at++] = (byte) part.charAt(i);
            }
        }
        return data;
    }

    /** Whether {@code writeUTF} writes {@code part} as its characters, one byte each (and its length fits). */
    private static boolean printableAscii(String part) {
        if (part.length() > 0xFFFF) {
            return false;
        }
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == 0 || c > 0x7F) {
                return false;
            }
        }
        return true;
    }

    private static byte[] written(String[] parts) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            for (String part : parts) {
                out.writeUTF(part);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public String toString() {
        return table + "." + column;
    }
}
