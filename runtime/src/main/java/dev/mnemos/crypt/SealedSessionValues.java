package dev.mnemos.crypt;

import dev.mnemos.session.SessionValues;
import dev.mnemos.session.SessionValues.NotInMemoryException;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Optional;
import java.util.Set;

/**
 * Session texts in Redis sealed with their owner's data key ({@link MemoryCipher#sealDense}), bound to the user and
 * the value's place ({@code redis.<place>}), not to the session: a fork or a rollback copies values between versions
 * and sessions of the same user, and they open there; copied to another user's session they do not.
 * <p>
 * Two memos, bounded ({@link Generations}), for the texts read or written last, each bound to the data key that
 * sealed them (the very key object: a key read again after an erase is another, and finds nothing of the erased
 * one's):
 * <ul>
 * <li>{@code sealedAs}: a text sealed again to the same place gets the ciphertext it had. A rollback writes back the
 * values it read, and the scripts compare values to find what changed (a plan body already stored is kept, an
 * unchanged field is not written again).</li>
 * <li>{@code openedAs}: a ciphertext read again opens to the text it held without being decrypted. A step reads the
 * session's values back each time, nearly all of them as the previous step left them; at 64 clients opening them took
 * half of what sealing cost a step.</li>
 * </ul>
 * A step's trace, its replay event and an idempotent write's result are new texts each time and seldom read again: they
 * are sealed and opened without the memos ({@link #WRITTEN_ONCE}), which would only fill with them, and sealed without
 * deflating them. In a step, deflating a trace of 4,000 characters took 60 of the 75 µs its sealing cost (zlib's
 * quarter of a megabyte of state is out of the CPU's caches again at every step); undeflated, a trace costs 8/7 of its
 * plain bytes in Redis (the 7-bit encoding), within the 1.3x sealing may cost.
 * <p>
 * {@link #forget} drops a user's entries from both. {@link #withoutBlocking()} (for an event loop) seals and opens only with
 * a data key in memory, else fails with {@link NotInMemoryException} rather than reading the key in Postgres.
 */
@ApplicationScoped
public class SealedSessionValues implements SessionValues {

    /** The places of texts written once: {@link #WRITTEN_ONCE}. */
    private static final Set<String> WRITTEN_ONCE = Set.of("trace", "event", "idempotency");

    /** A text at a place under a key: equal only under the same key object. */
    private record Memo(DataKey key, String place, String text) {

        @Override
        public boolean equals(Object other) {
            return other instanceof Memo memo && memo.key == key && memo.place.equals(place) && memo.text.equals(text);
        }

        @Override
        public int hashCode() {
            return (System.identityHashCode(key) * 31 + place.hashCode()) * 31 + text.hashCode();
        }
    }

    /**
     * A sealed value at a place under a key, known by its length and the characters that hold its nonce (the first 14
     * after {@link MemoryCipher#DENSE_MARK}: 98 bits for the 96 of the nonce) and its tag (the last 20: 140 bits for its
     * 128 and the encoding's padding), not by all of its characters: a lookup compares these 34, where comparing whole
     * ciphertexts read kilobytes of the memo a step, out of the CPU's caches, and the memo holds no ciphertexts.
     * <p>
     * Two values sealed under one key with the same nonce and tag are the same value: another ciphertext with this nonce
     * and tag would not open (making one takes the key). So a lookup answers what opening would, but for a value altered
     * between its nonce and its tag: that opens to the text it held, as the value itself, written back, would.
     */
    private record Stored(DataKey key, String place, int length, String ends) {

        private static final int NONCE_CHARS = 14;
        private static final int TAG_CHARS = 20;

        static Stored of(DataKey key, String place, String text) {
            int from = MemoryCipher.DENSE_MARK.length();
            String ends = text.length() <= from + NONCE_CHARS + TAG_CHARS ? text
                    : text.substring(from, from + NONCE_CHARS) + text.substring(text.length() - TAG_CHARS);
            return new Stored(key, place, text.length(), ends);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Stored stored && stored.key == key && stored.length == length
                    && stored.place.equals(place) && stored.ends.equals(ends);
        }

        @Override
        public int hashCode() {
            return (System.identityHashCode(key) * 31 + place.hashCode()) * 31 + ends.hashCode();
        }
    }

    private final MemoryCipher cipher;
    private final Generations<Memo, String> sealedAs = new Generations<>(4096);
    private final Generations<Stored, String> openedAs = new Generations<>(4096);

    /** These values where nothing may block ({@link #withoutBlocking()}). */
    private final SessionValues inMemoryOnly = new InMemoryOnly();

    public SealedSessionValues(MemoryCipher cipher) {
        this.cipher = cipher;
    }

    @Override
    public boolean on() {
        return cipher.on();
    }

    @Override
    public boolean ready(String userId) {
        return !cipher.on() || cipher.ready(userId);
    }

    @Override
    public String seal(String userId, String place, String plain) {
        return seal(userId, place, plain, false);
    }

    /** @param inMemoryOnly whether the data key must be in memory ({@link #withoutBlocking()}) */
    protected String seal(String userId, String place, String plain, boolean inMemoryOnly) {
        if (plain == null || !cipher.on() || MemoryCipher.denselySealed(plain)) {
            return plain;
        }
        DataKey key = inMemoryOnly ? inMemory(userId) : cipher.keyForWrite(userId);
        if (WRITTEN_ONCE.contains(place)) {
            return cipher.sealDenseUndeflated(plain, place(userId, place), key);
        }
        Memo text = new Memo(key, place, plain);
        String known = sealedAs.get(text);
        if (known != null) {
            return known;
        }
        String sealed = cipher.sealDense(plain, place(userId, place), key);
        sealedAs.put(text, sealed);
        openedAs.put(Stored.of(key, place, sealed), plain); // the next step reads it back
        return sealed;
    }

    @Override
    public String open(String userId, String place, String stored) {
        return open(userId, place, stored, false);
    }

    /** @param inMemoryOnly whether the data key must be in memory ({@link #withoutBlocking()}) */
    protected String open(String userId, String place, String stored, boolean inMemoryOnly) {
        if (!MemoryCipher.denselySealed(stored)) {
            return stored;
        }
        Place at = place(userId, place);
        DataKey key = inMemoryOnly ? inMemory(userId) : cipher.keyForRead(at);
        if (WRITTEN_ONCE.contains(place)) {
            return cipher.openDense(stored, at, key);
        }
        Stored sealed = Stored.of(key, place, stored);
        String known = openedAs.get(sealed);
        if (known != null) {
            return known;
        }
        String plain = cipher.openDense(stored, at, key);
        openedAs.put(sealed, plain);
        sealedAs.put(new Memo(key, place, plain), stored);
        return plain;
    }

    @Override
    public String name(String userId, String place, String text) {
        return name(userId, place, text, false);
    }

    /** @param inMemoryOnly whether the data key must be in memory ({@link #withoutBlocking()}) */
    protected String name(String userId, String place, String text, boolean inMemoryOnly) {
        if (text == null || !cipher.on()) {
            return text;
        }
        return cipher.name(text, place(userId, place), inMemoryOnly ? inMemory(userId) : cipher.keyForWrite(userId));
    }

    @Override
    public SessionValues withoutBlocking() {
        return inMemoryOnly;
    }

    /** The user's data key when it is in memory. @throws NotInMemoryException when reading it would need Postgres */
    private DataKey inMemory(String userId) {
        return (userId == null ? Optional.<DataKey> empty() : cipher.keyInMemory(userId))
                .orElseThrow(NotInMemoryException::new);
    }

    /** These values, sealed and opened only with data keys in memory. */
    private final class InMemoryOnly implements SessionValues {

        @Override
        public boolean on() {
            return SealedSessionValues.this.on();
        }

        @Override
        public boolean ready(String userId) {
            return SealedSessionValues.this.ready(userId);
        }

        @Override
        public String seal(String userId, String place, String plain) {
            return SealedSessionValues.this.seal(userId, place, plain, true);
        }

        @Override
        public String open(String userId, String place, String stored) {
            return SealedSessionValues.this.open(userId, place, stored, true);
        }

        @Override
        public String name(String userId, String place, String text) {
            return SealedSessionValues.this.name(userId, place, text, true);
        }

        @Override
        public void forget(String userId) {
            SealedSessionValues.this.forget(userId);
        }

        @Override
        public SessionValues withoutBlocking() {
            return this;
        }
    }

    /** How many of the user's texts the memos hold, sealed as and opened as. */
    public long remembered(String userId) {
        return sealedAs.count(memo -> memo.key().userId().equals(userId))
                + openedAs.count(stored -> stored.key().userId().equals(userId));
    }

    @Override
    public void forget(String userId) {
        sealedAs.removeIf(memo -> memo.key().userId().equals(userId));
        openedAs.removeIf(stored -> stored.key().userId().equals(userId));
    }

    private static Place place(String userId, String place) {
        return Place.of(userId, "redis", place);
    }
}
