package dev.mnemos.crypt;

import jakarta.enterprise.context.ApplicationScoped;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * A key-encryption key provider of an application's own, as a Vault Transit or KMS one would be: its keys live in
 * memory, it wraps with AES Key Wrap (RFC 3394, not the shipped provider's GCM), and a rotation makes a new key
 * current while the old ones still unwrap until {@link #destroy} — nothing of Mnemos but the SPI.
 */
@ApplicationScoped
public class InMemoryKeys implements KeyEncryptionKeys {

    private final Map<String, SecretKey> keys = new ConcurrentHashMap<>();
    private volatile String current;

    public InMemoryKeys() {
        rotateTo("mem-0");
    }

    /** Makes a new key named {@code id} the current one. */
    public void rotateTo(String id) {
        try {
            KeyGenerator generator = KeyGenerator.getInstance("AES");
            generator.init(256, new SecureRandom());
            keys.put(id, generator.generateKey());
            current = id;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Destroys the key {@code id}: what only it wraps no longer unwraps. */
    public void destroy(String id) {
        keys.remove(id);
    }

    @Override
    public String currentKeyId() {
        return current;
    }

    @Override
    public Wrapped wrap(byte[] dataKey) {
        String id = current;
        try {
            Cipher cipher = Cipher.getInstance("AESWrap");
            cipher.init(Cipher.WRAP_MODE, keys.get(id));
            return new Wrapped(id, cipher.wrap(new SecretKeySpec(dataKey, "AES")));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public byte[] unwrap(Wrapped wrapped) {
        SecretKey key = keys.get(wrapped.keyId());
        if (key == null) {
            throw new IllegalStateException("no key " + wrapped.keyId());
        }
        try {
            Cipher cipher = Cipher.getInstance("AESWrap");
            cipher.init(Cipher.UNWRAP_MODE, key);
            return cipher.unwrap(wrapped.bytes(), "AES", Cipher.SECRET_KEY).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a data key does not unwrap with " + wrapped.keyId(), e);
        }
    }
}
