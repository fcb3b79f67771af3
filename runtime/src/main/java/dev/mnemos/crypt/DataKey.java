package dev.mnemos.crypt;

import java.util.concurrent.atomic.AtomicReference;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * A user's data key, opened, with the cipher it served last ({@link Aead}): a cipher initialised again with the key it
 * had skips expanding the key (a tenth of a short value's sealing), so each key keeps one of its own. The cipher goes
 * with the key when the key leaves the cache ({@link DataKeys#evict} on erase).
 */
final class DataKey extends SecretKeySpec {

    private static final long serialVersionUID = 1L;

    /** Idle, last initialised with this key; null while a thread uses it (or before the first use). */
    @SuppressWarnings("serial") // never serialized: a data key stays in memory
    private final transient AtomicReference<Cipher> idle = new AtomicReference<>();

    private final String userId;

    DataKey(String userId, byte[] key) {
        super(key, "AES");
        this.userId = userId;
    }

    String userId() {
        return userId;
    }

    /** The idle cipher, taken (another thread gets null until it is put back). */
    Cipher take() {
        return idle.getAndSet(null);
    }

    /** @return whether the key keeps {@code cipher} (false: it already keeps another) */
    boolean keep(Cipher cipher) {
        return idle.compareAndSet(null, cipher);
    }
}
