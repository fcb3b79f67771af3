package dev.mnemos.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * An idempotency key with the fingerprint of the request it came with. A write carrying one is
 * applied at most once per session: the write script records key → fingerprint and result
 * atomically with the write, and a later write with the same key writes nothing and answers the
 * recorded result (or {@link IdempotencyKeyReusedException} when the fingerprint differs).
 *
 * @param key the client's key: 1 to 255 visible ASCII characters
 * @param fingerprint a digest of everything the request asked for
 */
public record Idempotency(String key, String fingerprint) {

    private static final Pattern KEY = Pattern.compile("[\\x21-\\x7E]{1,255}");

    public Idempotency {
        if (key == null || !KEY.matcher(key).matches()) {
            throw new InvalidPatchException("Idempotency-Key", "1 to 255 visible ASCII characters");
        }
        if (fingerprint == null || fingerprint.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("fingerprint must be one line");
        }
    }

    /** @return null when {@code key} is null (no idempotency asked for) */
    public static Idempotency of(String key, String... request) {
        return key == null ? null : new Idempotency(key, fingerprint(request));
    }

    /** SHA-256 (hex) of the parts, each followed by a newline. */
    public static String fingerprint(String... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                digest.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
                digest.update((byte) '\n');
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The id of the session a keyed create or fork makes: derived from where it is made and the key,
     * so a retry addresses the same session and its record. @param scope the user (create) or the source session (fork)
     */
    String derivedId(String kind, String scope) {
        return UUID.nameUUIDFromBytes((kind + "\n" + scope + "\n" + key).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
