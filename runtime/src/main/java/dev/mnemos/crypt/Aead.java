package dev.mnemos.crypt;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * AES-256-GCM with a random 12-byte nonce, as {@code nonce || ciphertext || tag}: the JDK's, nothing hand-made.
 * <p>
 * Cipher objects are kept for the next value: looking one up costs several times sealing a short value, and one
 * initialised with the key it had skips expanding that key again. So a {@link DataKey} keeps the cipher it served last,
 * and other ciphers wait in {@link #IDLE}. A cipher serves one value at a time; every use initialises it with the
 * value's own key and nonce.
 */
final class Aead {

    static final int NONCE_BYTES = 12;
    static final int TAG_BITS = 128;
    /** What sealing adds to a value: the nonce and the tag. */
    static final int OVERHEAD = NONCE_BYTES + TAG_BITS / 8;
    /**
     * Ciphers kept between uses: about the threads that seal at once; more are made when needed, then dropped. The one
     * put back last is taken first (the likeliest to be in the CPU's caches).
     */
    private static final BlockingDeque<Cipher> IDLE = new LinkedBlockingDeque<>(64);

    private static final SecureRandom RANDOM = new SecureRandom();

    private Aead() {
    }

    static byte[] seal(SecretKey key, byte[] plain, byte[] associated) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        Cipher cipher = cipher(key);
        try {
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associated);
            byte[] sealed = new byte[NONCE_BYTES + cipher.getOutputSize(plain.length)];
            System.arraycopy(nonce, 0, sealed, 0, NONCE_BYTES);
            cipher.doFinal(plain, 0, plain.length, sealed, NONCE_BYTES);
            return sealed;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        } finally {
            release(key, cipher);
        }
    }

    /** @throws GeneralSecurityException when the bytes were not sealed by this key with this associated data */
    static byte[] open(SecretKey key, byte[] sealed, byte[] associated) throws GeneralSecurityException {
        if (sealed.length < OVERHEAD) {
            throw new AEADBadTagException("too short to be sealed");
        }
        Cipher cipher = cipher(key);
        try {
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
            cipher.updateAAD(associated);
            return cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
        } finally {
            release(key, cipher);
        }
    }

    private static void release(SecretKey key, Cipher cipher) {
        if (!(key instanceof DataKey dataKey) || !dataKey.keep(cipher)) {
            IDLE.offerFirst(cipher);
        }
    }

    static byte[] randomKey() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return key;
    }

    private static Cipher cipher(SecretKey key) {
        Cipher kept = key instanceof DataKey dataKey ? dataKey.take() : null;
        if (kept != null) {
            return kept;
        }
        Cipher idle = IDLE.pollFirst();
        if (idle != null) {
            return idle;
        }
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }
}
