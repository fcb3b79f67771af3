package dev.mnemos.crypt;

import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.Map;
import java.util.Optional;

/**
 * Encryption at rest of the memory Mnemos keeps in Postgres (docs/operations.md "Encryption at rest"). Each user's
 * texts are sealed with a data key of their own; the data keys are stored only wrapped by a key-encryption key, which
 * these settings give to the shipped {@link KeyEncryptionKeys} provider. An application bean implementing
 * {@link KeyEncryptionKeys} (Vault Transit, a cloud KMS) replaces that provider and these settings.
 */
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
@ConfigMapping(prefix = "quarkus.mnemos.encryption")
public interface EncryptionConfig {

    /**
     * The key-encryption key: 32 random bytes, base64 (for example {@code openssl rand -base64 32}, kept in a
     * Kubernetes Secret). Encryption at rest is on when it is set; without it texts are stored in clear, as before.
     */
    Optional<String> key();

    /**
     * The name of {@code quarkus.mnemos.encryption.key}, stored next to every data key it wraps. Give a new key a new
     * name when rotating, and keep the old one in {@code quarkus.mnemos.encryption.previous-keys} until the rotation
     * finished.
     */
    @WithDefault("k0")
    String keyId();

    /**
     * Earlier key-encryption keys by name (base64 of 32 bytes each): they still unwrap the data keys they wrapped,
     * and are no longer used to wrap. Remove one once {@code KeyRotation#rewrap()} re-wrapped every data key.
     */
    @ConfigDocMapKey("key-id")
    Map<String, String> previousKeys();

    /** Most users' data keys kept unwrapped in memory; the others are unwrapped again when needed. */
    @WithDefault("10000")
    int cachedKeys();
}
