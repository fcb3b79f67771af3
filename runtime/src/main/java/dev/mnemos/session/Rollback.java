package dev.mnemos.session;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * A rollback ({@link SessionStore#rollback}): a new version whose content equals {@code toVersion}.
 * {@code expectedVersion} present makes it a compare-and-set; {@code idempotency} null applies it every
 * time, else at most once per key. Start with {@link #of}.
 */
public record Rollback(String sessionId, long toVersion, OptionalLong expectedVersion, String actor,
        Idempotency idempotency) {

    public Rollback {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(expectedVersion, "expectedVersion");
    }

    public static Rollback of(String sessionId, long toVersion) {
        return new Rollback(sessionId, toVersion, OptionalLong.empty(), null, null);
    }

    public Rollback expecting(long version) {
        return expecting(OptionalLong.of(version));
    }

    public Rollback expecting(OptionalLong version) {
        return new Rollback(sessionId, toVersion, version, actor, idempotency);
    }

    public Rollback by(String actor) {
        return new Rollback(sessionId, toVersion, expectedVersion, actor, idempotency);
    }

    public Rollback keyed(Idempotency idempotency) {
        return new Rollback(sessionId, toVersion, expectedVersion, actor, idempotency);
    }
}
