package dev.mnemos.crypt;

import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

import javax.crypto.SecretKey;

/**
 * Seals and opens a user's stored values with their data key (AES-256-GCM, a random 12-byte nonce, the value's
 * {@link Place} as associated data). A sealed text is {@link #TEXT_MARK} and the base64 of nonce, ciphertext and tag;
 * sealed bytes (an embedding) are {@link #BYTES_MARK} and the same bytes. A value without the mark is a plain one,
 * stored before encryption was on: it is read as it is, and sealed when its row is written next. With encryption off,
 * values are stored as they are given.
 */
@Unremovable
@ApplicationScoped
public class MemoryCipher {

    /** The start of a sealed text: a control character no user text begins with, and the format's version. */
    public static final String TEXT_MARK = "\u0002m1:";
    /**
     * The start of sealed bytes. Five bytes, so a sealed value's length is never a multiple of 4, which a plain
     * embedding's (little-endian floats) always is.
     */
    static final byte[] BYTES_MARK = { 2, 'm', '1', 'b', ':' };

    private final DataKeys keys;

    public MemoryCipher(DataKeys keys) {
        this.keys = keys;
    }

    /** Whether new values are sealed. */
    public boolean on() {
        return keys.enabled();
    }

    public static boolean sealed(String stored) {
        return stored != null && stored.startsWith(TEXT_MARK);
    }

    public static boolean sealed(byte[] stored) {
        return stored != null && stored.length % 4 != 0 && stored.length > BYTES_MARK.length
                && Arrays.equals(stored, 0, BYTES_MARK.length, BYTES_MARK, 0, BYTES_MARK.length);
    }

    /** The value as stored: sealed when encryption is on (a sealed one stays as it is), else as given. */
    public String seal(String plain, Place place) {
        if (plain == null || sealed(plain) || !on()) {
            return plain;
        }
        byte[] associated = place.associatedData();
        byte[] sealed = Aead.seal(keys.forWrite(place.userId()), plain.getBytes(StandardCharsets.UTF_8), associated);
        return TEXT_MARK + Base64.getEncoder().encodeToString(sealed);
    }

    public byte[] seal(byte[] plain, Place place) {
        if (plain == null || sealed(plain) || !on()) {
            return plain;
        }
        byte[] associated = place.associatedData();
        byte[] sealed = Aead.seal(keys.forWrite(place.userId()), plain, associated);
        byte[] stored = Arrays.copyOf(BYTES_MARK, BYTES_MARK.length + sealed.length);
        System.arraycopy(sealed, 0, stored, BYTES_MARK.length, sealed.length);
        return stored;
    }

    /** The value a stored one holds: a plain one as it is. @throws SealedValueException when a sealed one does not open */
    public String open(String stored, Place place) {
        if (!sealed(stored)) {
            return stored;
        }
        byte[] sealed;
        try {
            sealed = Base64.getDecoder().decode(stored.substring(TEXT_MARK.length()));
        } catch (IllegalArgumentException e) {
            throw new SealedValueException(place.toString(), "it is not a sealed value (altered)", e);
        }
        return new String(decrypt(sealed, place), StandardCharsets.UTF_8);
    }

    public byte[] open(byte[] stored, Place place) {
        if (!sealed(stored)) {
            return stored;
        }
        return decrypt(Arrays.copyOfRange(stored, BYTES_MARK.length, stored.length), place);
    }

    private byte[] decrypt(byte[] sealed, Place place) {
        byte[] associated = place.associatedData();
        Optional<SecretKey> key;
        try {
            key = keys.forRead(place.userId());
        } catch (IllegalStateException e) {
            // the key-encryption key that wrapped it is not configured (or none is)
            throw new SealedValueException(place.toString(), e.getMessage(), e);
        }
        if (key.isEmpty()) {
            throw new SealedValueException(place.toString(), "its user has no data key (erased, or a restored copy of"
                    + " values whose key was destroyed)", null);
        }
        try {
            return Aead.open(key.get(), sealed, associated);
        } catch (GeneralSecurityException e) {
            throw new SealedValueException(place.toString(), "it was sealed for another user or place, or altered", e);
        }
    }
}
