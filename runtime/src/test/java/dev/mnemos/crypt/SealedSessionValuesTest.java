package dev.mnemos.crypt;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The memo of opened session values knows a ciphertext by its length, nonce and tag: what it answers is what opening
 * answers, for the value's own key and place only; a value altered where its nonce or tag is does not open, and one
 * altered between them opens to the text it held while remembered (as the value written back would), not otherwise.
 */
class SealedSessionValuesTest {

    private final DataKey alice = new DataKey("alice", Aead.randomKey());
    private final DataKey bob = new DataKey("bob", Aead.randomKey());
    private final MemoryCipher cipher = new MemoryCipher(new Keys(Map.of("alice", alice, "bob", bob)));

    @Test
    void aRememberedValueOpensToItsTextAndOnlyAtItsOwnUserAndPlace() {
        SealedSessionValues values = new SealedSessionValues(cipher);
        String text = "the answer of step 7: " + "Fushimi Inari at dawn. ".repeat(20);
        String sealed = values.seal("alice", "k", text);
        assertThat(MemoryCipher.denselySealed(sealed)).isTrue();

        // a copy, as read back from Redis: the memo's answer, and a fresh memo's (it decrypts) agree
        assertThat(values.open("alice", "k", new String(sealed.toCharArray()))).isEqualTo(text);
        assertThat(new SealedSessionValues(cipher).open("alice", "k", sealed)).isEqualTo(text);

        assertThatThrownBy(() -> values.open("alice", "goal", sealed)).isInstanceOf(SealedValueException.class);
        assertThatThrownBy(() -> values.open("bob", "k", sealed)).isInstanceOf(SealedValueException.class);
    }

    @Test
    void valuesOfTheSameLengthAreToldApartByTheirNonceAndTag() {
        SealedSessionValues values = new SealedSessionValues(cipher);
        String first = values.seal("alice", "k", "answer one");
        String second = values.seal("alice", "k", "answer two");
        assertThat(first).hasSameSizeAs(second);
        assertThat(values.open("alice", "k", second)).isEqualTo("answer two");
        assertThat(values.open("alice", "k", first)).isEqualTo("answer one");
    }

    @Test
    void anAlteredValueDoesNotOpenUnlessItsNonceAndTagAreThoseOfOneRemembered() {
        SealedSessionValues values = new SealedSessionValues(cipher);
        String text = "constraint: no night crossings. ".repeat(10);
        String sealed = values.seal("alice", "c", text);
        int middle = sealed.length() / 2;
        String alteredBody = flip(sealed, middle);
        String alteredNonce = flip(sealed, MemoryCipher.DENSE_MARK.length() + 3);
        String alteredTag = flip(sealed, sealed.length() - 5);

        assertThatThrownBy(() -> values.open("alice", "c", alteredNonce)).isInstanceOf(SealedValueException.class);
        assertThatThrownBy(() -> values.open("alice", "c", alteredTag)).isInstanceOf(SealedValueException.class);
        assertThat(values.open("alice", "c", alteredBody)).isEqualTo(text);
        assertThatThrownBy(() -> new SealedSessionValues(cipher).open("alice", "c", alteredBody))
                .isInstanceOf(SealedValueException.class);
    }

    /** {@code sealed} with the 7-bit character at {@code at} changed. */
    private static String flip(String sealed, int at) {
        return sealed.substring(0, at) + (char) (sealed.charAt(at) ^ 1) + sealed.substring(at + 1);
    }

    /** Data keys held in memory, as the cache holds them after their first use (no Postgres). */
    private static final class Keys extends DataKeys {

        private final Map<String, DataKey> keys;

        Keys(Map<String, DataKey> keys) {
            super(null, null, new EncryptionConfig() {
                @Override
                public Optional<String> key() {
                    return Optional.empty();
                }

                @Override
                public String keyId() {
                    return "test";
                }

                @Override
                public Map<String, String> previousKeys() {
                    return Map.of();
                }

                @Override
                public int cachedKeys() {
                    return 10;
                }
            });
            this.keys = keys;
        }

        @Override
        public boolean enabled() {
            return true;
        }

        @Override
        Optional<DataKey> inMemory(String userId) {
            return Optional.ofNullable(keys.get(userId));
        }

        @Override
        DataKey forWrite(String userId) {
            return keys.get(userId);
        }

        @Override
        Optional<DataKey> forRead(String userId) {
            return Optional.ofNullable(keys.get(userId));
        }
    }
}
