package dev.mnemos.crypt;

import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The shipped provider: a rotation's previous keys unwrap what they wrapped; a bad key is refused by its setting's name. */
class ConfiguredKeyEncryptionKeysTest {

    private static final String K0 = key('a');
    private static final String K1 = key('b');

    @Test
    void aPreviousKeyStillUnwrapsWhatItWrapped() {
        byte[] dataKey = Aead.randomKey();
        KeyEncryptionKeys.Wrapped byK0 = keys(Optional.of(K0), "k0", Map.of()).wrap(dataKey);

        ConfiguredKeyEncryptionKeys rotating = keys(Optional.of(K1), "k1", Map.of("k0", K0));
        assertThat(rotating.currentKeyId()).isEqualTo("k1");
        assertThat(rotating.unwrap(byK0)).isEqualTo(dataKey);
        KeyEncryptionKeys.Wrapped byK1 = rotating.wrap(dataKey);
        assertThat(byK1.keyId()).isEqualTo("k1");

        ConfiguredKeyEncryptionKeys rotated = keys(Optional.of(K1), "k1", Map.of());
        assertThat(rotated.unwrap(byK1)).isEqualTo(dataKey);
        assertThatThrownBy(() -> rotated.unwrap(byK0)).hasMessageContaining("'k0' is not configured");
        // a wrapped key presented under another key's name does not unwrap
        assertThatThrownBy(() -> rotating.unwrap(new KeyEncryptionKeys.Wrapped("k0", byK1.bytes())))
                .hasMessageContaining("does not unwrap");
    }

    @Test
    void withoutAKeyItIsOffAndABadKeyIsRefusedByName() {
        assertThat(keys(Optional.empty(), "k0", Map.of()).enabled()).isFalse();
        assertThatThrownBy(() -> keys(Optional.of("not base64!"), "k0", Map.of()))
                .hasMessage("quarkus.mnemos.encryption.key is not base64 (expected 32 random bytes, base64)");
        assertThatThrownBy(() -> keys(Optional.of(Base64.getEncoder().encodeToString(new byte[16])), "k0", Map.of()))
                .hasMessage("quarkus.mnemos.encryption.key holds 16 bytes; expected 32 (AES-256)");
    }

    private static String key(char c) {
        return Base64.getEncoder().encodeToString(String.valueOf(c).repeat(32).getBytes());
    }

    private static ConfiguredKeyEncryptionKeys keys(Optional<String> key, String id, Map<String, String> previous) {
        return new ConfiguredKeyEncryptionKeys(new EncryptionConfig() {
            @Override
            public Optional<String> key() {
                return key;
            }

            @Override
            public String keyId() {
                return id;
            }

            @Override
            public Map<String, String> previousKeys() {
                return previous;
            }

            @Override
            public int cachedKeys() {
                return 10;
            }
        });
    }
}
