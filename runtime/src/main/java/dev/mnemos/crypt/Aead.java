package dev.mnemos.crypt;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/** AES-256-GCM with a random 12-byte nonce, as {@code nonce || ciphertext || tag}: the JDK's, nothing hand-made. */
final class Aead {

    static final int NONCE_BYTES = 12;
    static final int TAG_BITS = 128;
    /** What sealing adds to a value: the nonce and the tag. */
    static final int OVERHEAD = NONCE_BYTES + TAG_BITS / 8;

    private static final SecureRandom RANDOM = new SecureRandom();

    private Aead() {
    }

    static byte[] seal(SecretKey key, byte[] plain, byte[] associated) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associated);
            byte[] sealed = new byte[NONCE_BYTES + cipher.getOutputSize(plain.length)];
            System.arraycopy(nonce, 0, sealed, 0, NONCE_BYTES);
            cipher.doFinal(plain, 0, plain.length, sealed, NONCE_BYTES);
            return sealed;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    /** @throws GeneralSecurityException when the bytes were not sealed by this key with this associated data */
    static byte[] open(SecretKey key, byte[] sealed, byte[] associated) throws GeneralSecurityException {
        if (sealed.length < OVERHEAD) {
            throw new AEADBadTagException("too short to be sealed");
        }
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
        cipher.updateAAD(associated);
        return cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
    }

    static byte[] randomKey() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return key;
    }
}
