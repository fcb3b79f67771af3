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

    /** A place without a row key. */
    public static Place of(String userId, String table, String column) {
        return new Place(userId, table, column, null);
    }

    /** The associated data: every part length-prefixed, so no two places give the same bytes. */
    byte[] associatedData() {
        if (userId == null) {
            throw new IllegalArgumentException("a sealed value of " + this + " needs its user");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF("mnemos v1");
            out.writeUTF(table);
            out.writeUTF(column);
            out.writeUTF(userId);
            out.writeUTF(row == null ? "" : row);
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
