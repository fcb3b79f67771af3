package dev.mnemos.session;

import java.util.UUID;
import java.util.regex.Pattern;

/** Session and user ids: safe inside a Redis hash tag, never blank, bounded. */
public final class SessionIds {

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._@:-]{1,128}");

    private SessionIds() {
    }

    public static String newId() {
        return UUID.randomUUID().toString();
    }

    /** @throws InvalidPatchException naming {@code field} when the id is blank, too long or has unsafe characters */
    public static String require(String field, String id) {
        if (id == null || !SAFE.matcher(id).matches()) {
            throw new InvalidPatchException(field, "1 to 128 characters of A-Z a-z 0-9 . _ @ : -");
        }
        return id;
    }
}
