package dev.mnemos.crypt;

import io.quarkus.arc.DefaultBean;
import io.quarkus.runtime.LaunchMode;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The shipped key-encryption keys: {@code quarkus.mnemos.encryption.key} wraps, and it or one of
 * {@code quarkus.mnemos.encryption.previous-keys} unwraps, by the name stored with the data key. Wrapping is AES-256-GCM
 * with the key's name as associated data, so a wrapped key cannot pass for one of another name. An application's own
 * {@link KeyEncryptionKeys} bean replaces this one.
 * <p>
 * In dev mode without a key, a throw-away one ({@value #THROW_AWAY_ID}) is made at the first start and kept for the
 * JVM (live reloads keep it), so dev mode runs encrypted as production should; what it sealed no longer opens once dev
 * mode stops.
 */
@DefaultBean
@ApplicationScoped
public class ConfiguredKeyEncryptionKeys implements KeyEncryptionKeys {

    /** The name of dev mode's throw-away key. */
    static final String THROW_AWAY_ID = "dev-throw-away";
    /** Dev mode's throw-away key: made once a JVM, never stored. */
    private static volatile SecretKey throwAway;

    private final Optional<String> current;
    private final Map<String, SecretKey> keys = new HashMap<>();

    public ConfiguredKeyEncryptionKeys(EncryptionConfig config) {
        config.previousKeys().forEach((id, key) -> keys.put(id, aesKey("quarkus.mnemos.encryption.previous-keys." + id, key)));
        Optional<String> configured = config.key().map(key -> {
            keys.put(config.keyId(), aesKey("quarkus.mnemos.encryption.key", key));
            return config.keyId();
        });
        if (configured.isEmpty() && LaunchMode.current() == LaunchMode.DEVELOPMENT) {
            keys.put(THROW_AWAY_ID, throwAwayKey());
            configured = Optional.of(THROW_AWAY_ID);
        }
        current = configured;
    }

    /** Whether the key in use is dev mode's throw-away one. */
    public boolean throwAway() {
        return current.filter(THROW_AWAY_ID::equals).isPresent();
    }

    private static synchronized SecretKey throwAwayKey() {
        if (throwAway == null) {
            throwAway = new SecretKeySpec(Aead.randomKey(), "AES");
        }
        return throwAway;
    }

    @Override
    public boolean enabled() {
        return current.isPresent();
    }

    @Override
    public String currentKeyId() {
        return current.orElseThrow(() -> new IllegalStateException("no quarkus.mnemos.encryption.key is configured"));
    }

    @Override
    public Wrapped wrap(byte[] dataKey) {
        String id = currentKeyId();
        return new Wrapped(id, Aead.seal(keys.get(id), dataKey, associated(id)));
    }

    @Override
    public byte[] unwrap(Wrapped wrapped) {
        SecretKey key = keys.get(wrapped.keyId());
        if (key == null) {
            throw new IllegalStateException("the key-encryption key '" + wrapped.keyId() + "' is not configured (neither"
                    + " quarkus.mnemos.encryption.key nor one of quarkus.mnemos.encryption.previous-keys)");
        }
        try {
            return Aead.open(key, wrapped.bytes(), associated(wrapped.keyId()));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("a data key does not unwrap with the key-encryption key '" + wrapped.keyId()
                    + "' (another key of that name?)", e);
        }
    }

    private static byte[] associated(String keyId) {
        return ("mnemos data key|" + keyId).getBytes(StandardCharsets.UTF_8);
    }

    /** The AES-256 key a setting holds. @throws IllegalArgumentException naming the setting, never its value */
    static SecretKey aesKey(String setting, String base64) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(setting + " is not base64 (expected 32 random bytes, base64)");
        }
        if (bytes.length != 32) {
            throw new IllegalArgumentException(setting + " holds " + bytes.length + " bytes; expected 32 (AES-256)");
        }
        return new SecretKeySpec(bytes, "AES");
    }
}
