package dev.mnemos.crypt;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.session.SessionValues;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Session texts in Redis sealed with their owner's data key ({@link MemoryCipher#sealDense}), bound to the user and
 * the value's place ({@code redis.<place>}), not to the session: a fork or a rollback copies values between versions
 * and sessions of the same user, and they open there; copied to another user's session they do not.
 * <p>
 * A text sealed again to the same place gets the ciphertext it had (remembered, bounded, for the texts read or
 * written last): a rollback writes back the values it read, and the scripts compare values to find what changed
 * (a plan body already stored is kept, an unchanged field is not written again).
 */
@ApplicationScoped
public class SealedSessionValues implements SessionValues {

    private record Text(String userId, String place, String plain) {
    }

    private final MemoryCipher cipher;
    private final Cache<Text, String> sealedAs = Caffeine.newBuilder().maximumSize(4096).build();

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
        if (plain == null || !cipher.on() || MemoryCipher.denselySealed(plain)) {
            return plain;
        }
        Text text = new Text(userId, place, plain);
        String known = sealedAs.getIfPresent(text);
        if (known != null) {
            return known;
        }
        String sealed = cipher.sealDense(plain, place(userId, place));
        sealedAs.put(text, sealed);
        return sealed;
    }

    @Override
    public String open(String userId, String place, String stored) {
        if (!MemoryCipher.denselySealed(stored)) {
            return stored;
        }
        String plain = cipher.open(stored, place(userId, place));
        Text text = new Text(userId, place, plain);
        if (!stored.equals(sealedAs.getIfPresent(text))) {
            // a read of an unchanged session remembers nothing new (a cache write costs more than a read)
            sealedAs.put(text, stored);
        }
        return plain;
    }

    @Override
    public String name(String userId, String place, String text) {
        return cipher.name(text, place(userId, place));
    }

    /** Forgets the ciphertexts remembered for the user (their data key was destroyed). */
    public void forget(String userId) {
        sealedAs.asMap().keySet().removeIf(text -> text.userId().equals(userId));
    }

    private static Place place(String userId, String place) {
        return Place.of(userId, "redis", place);
    }
}
