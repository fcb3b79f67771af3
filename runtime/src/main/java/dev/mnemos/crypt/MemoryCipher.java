package dev.mnemos.crypt;

import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens a user's stored values with their data key (AES-256-GCM, a random 12-byte nonce, the value's
 * {@link Place} as associated data; a text of 512 bytes or more deflated first, {@link Deflated}). A sealed text is
 * {@link #TEXT_MARK} and the base64 of nonce, ciphertext and tag;
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

    /**
     * The start of a sealed text in Redis: its bytes 7 bits a character (every character one byte in UTF-8, so a
     * sealed value costs 8/7 of its bytes where base64 costs 4/3; Redis strings and Lua take any byte, Postgres text
     * does not take NUL, hence base64 there).
     */
    public static final String DENSE_MARK = "\u0002r";
    /** The start of a field name made of a text ({@link #name}). */
    static final String NAME_MARK = "\u0002h";

    private final DataKeys keys;

    public MemoryCipher(DataKeys keys) {
        this.keys = keys;
    }

    /** Whether new values are sealed. */
    public boolean on() {
        return keys.enabled();
    }

    /** Whether {@code userId}'s values seal and open without blocking: their data key is in memory. */
    public boolean ready(String userId) {
        return userId != null && keys.inMemory(userId).isPresent();
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
        byte[] sealed = Aead.seal(keys.forWrite(place.userId()), Deflated.pack(plain), associated);
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

    public static boolean denselySealed(String stored) {
        return stored != null && stored.startsWith(DENSE_MARK);
    }

    /**
     * The value as stored in Redis: sealed as {@link #DENSE_MARK} and 7-bit characters when encryption is on (a sealed
     * one stays as it is), else as given.
     */
    public String sealDense(String plain, Place place) {
        if (plain == null || denselySealed(plain) || sealed(plain) || !on()) {
            return plain;
        }
        return sealDense(plain, place, keys.forWrite(place.userId()));
    }

    /** {@link #sealDense(String, Place)} of a text not sealed yet, with the user's data key at hand. */
    String sealDense(String plain, Place place, DataKey key) {
        return DenseText.encode(DENSE_MARK, Aead.seal(key, Deflated.pack(plain), place.associatedData()));
    }

    /**
     * {@link #sealDense(String, Place, DataKey)} of its UTF-8 as it is, never deflated: for a text written at every step
     * and seldom read, where deflating cost more than all the rest of sealing (opening reads both forms).
     */
    String sealDenseUndeflated(String plain, Place place, DataKey key) {
        return DenseText.encode(DENSE_MARK,
                Aead.seal(key, plain.getBytes(StandardCharsets.UTF_8), place.associatedData()));
    }

    /** The user's data key, created on first use. */
    DataKey keyForWrite(String userId) {
        return keys.forWrite(userId);
    }

    /** The user's data key when it is in memory (empty: reading or making it would need Postgres). */
    Optional<DataKey> keyInMemory(String userId) {
        return keys.inMemory(userId);
    }

    /**
     * A field name standing for {@code text} (an open question is a field of its own): the same for the same user,
     * place and text, and revealing nothing of it (HMAC-SHA256 under a key derived from the user's data key, 16 bytes);
     * {@code text} itself when encryption is off.
     */
    public String name(String text, Place place) {
        if (text == null || !on()) {
            return text;
        }
        return name(text, place, keys.forWrite(place.userId()));
    }

    /** {@link #name(String, Place)} with the user's data key at hand. */
    String name(String text, Place place, DataKey key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getEncoded(), "HmacSHA256"));
            mac.update(place.associatedData());
            mac.update((byte) 0);
            byte[] digest = mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
            return DenseText.encode(NAME_MARK, Arrays.copyOf(digest, 16));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    /** The value a stored one holds: a plain one as it is. @throws SealedValueException when a sealed one does not open */
    public String open(String stored, Place place) {
        if (denselySealed(stored)) {
            return openDense(stored, place, keyForRead(place));
        }
        if (!sealed(stored)) {
            return stored;
        }
        byte[] sealed;
        try {
            sealed = Base64.getDecoder().decode(stored.substring(TEXT_MARK.length()));
        } catch (IllegalArgumentException e) {
            throw new SealedValueException(place.toString(), "it is not a sealed value (altered)", e);
        }
        return text(decrypt(sealed, place), place);
    }

    /** The text a {@link #denselySealed} value holds, opened with the user's data key at hand. */
    String openDense(String stored, Place place, DataKey key) {
        byte[] sealed = DenseText.decode(stored, DENSE_MARK.length());
        if (sealed == null) {
            throw new SealedValueException(place.toString(), "it is not a sealed value (altered)", null);
        }
        return text(decrypt(sealed, place, key), place);
    }

    /** The text of opened bytes, inflated when they were deflated before sealing ({@link Deflated}). */
    private static String text(byte[] opened, Place place) {
        try {
            return Deflated.unpack(opened);
        } catch (IllegalArgumentException e) {
            throw new SealedValueException(place.toString(), "its deflated text does not inflate", e);
        }
    }

    public byte[] open(byte[] stored, Place place) {
        if (!sealed(stored)) {
            return stored;
        }
        return decrypt(Arrays.copyOfRange(stored, BYTES_MARK.length, stored.length), place);
    }

    private byte[] decrypt(byte[] sealed, Place place) {
        return decrypt(sealed, place, keyForRead(place));
    }

    /** @throws SealedValueException when the user has no data key, or the key-encryption key that wrapped it is missing */
    DataKey keyForRead(Place place) {
        Optional<DataKey> key;
        try {
            key = keys.forRead(place.userId());
        } catch (IllegalStateException e) {
            // the key-encryption key that wrapped it is not configured (or none is)
            throw new SealedValueException(place.toString(), e.getMessage(), e);
        }
        return key.orElseThrow(() -> new SealedValueException(place.toString(), "its user has no data key (erased, or a"
                + " restored copy of values whose key was destroyed)", null));
    }

    private static byte[] decrypt(byte[] sealed, Place place, DataKey key) {
        try {
            return Aead.open(key, sealed, place.associatedData());
        } catch (GeneralSecurityException e) {
            throw new SealedValueException(place.toString(), "it was sealed for another user or place, or altered", e);
        }
    }
}
