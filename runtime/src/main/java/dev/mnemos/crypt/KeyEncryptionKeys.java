package dev.mnemos.crypt;

/**
 * Where the key-encryption key lives: it wraps and unwraps the users' data keys, and nothing else. Mnemos ships a
 * provider that reads the key from configuration ({@link ConfiguredKeyEncryptionKeys}); an application bean
 * implementing this interface replaces it, for a key that never leaves Vault Transit or a cloud KMS (their
 * {@code encrypt}/{@code decrypt} calls are {@link #wrap}/{@link #unwrap}; docs/operations.md shows how).
 * <p>
 * Calls are rare (a user's data key is unwrapped once, then cached) but may come from many threads at once.
 */
public interface KeyEncryptionKeys {

    /** A data key wrapped by the key-encryption key named {@code keyId}. */
    record Wrapped(String keyId, byte[] bytes) {
    }

    /**
     * Whether there is a key-encryption key at all. When false, Mnemos stores texts in clear (and fails only when it
     * meets a sealed one).
     */
    default boolean enabled() {
        return true;
    }

    /** The name of the key {@link #wrap} uses now; data keys wrapped by another are re-wrapped by a rotation. */
    String currentKeyId();

    /** Wraps a 32-byte data key with the current key-encryption key. */
    Wrapped wrap(byte[] dataKey);

    /**
     * The data key {@code wrapped} holds, unwrapped by the key it names (the current one, or an earlier one during a
     * rotation). @throws IllegalStateException when that key is unknown or the bytes do not open
     */
    byte[] unwrap(Wrapped wrapped);
}
