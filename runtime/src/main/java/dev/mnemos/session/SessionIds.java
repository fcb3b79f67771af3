package dev.mnemos.session;

import java.util.UUID;
import java.util.regex.Pattern;

/** Session and user ids: safe inside a Redis hash tag, never blank, bounded. */
public final class SessionIds {

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._@:-]{1,128}");
    /** A user id named in a path: as {@link #SAFE}, but starting with a letter or digit (no {@code ..}, {@code -1}). */
    private static final Pattern USER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}");
    public static final String USER_GRAMMAR = "1 to 128 characters of A-Z a-z 0-9 . _ @ : -, starting with a letter or digit";

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

    /** @throws InvalidPatchException naming {@code field} unless {@code id} follows {@link #USER_GRAMMAR} */
    public static String requireUser(String field, String id) {
        if (id == null || !USER.matcher(id).matches()) {
            throw new InvalidPatchException(field, USER_GRAMMAR);
        }
        return id;
    }
}
