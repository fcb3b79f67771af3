package dev.mnemos.session;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One step written to a session ({@link SessionStore#apply}): the patch, and how it is written.
 * <ul>
 * <li>{@code owner}: checked atomically with the write (another user's session answers
 * {@link SessionNotFoundException}); null skips the check.</li>
 * <li>{@code expectedVersion}: present makes the write a compare-and-set; empty applies it to whatever is
 * current.</li>
 * <li>{@code idempotency}: null applies the write every time; else at most once per key, a repeat answering the
 * first result.</li>
 * <li>{@code trace}: stored as the trace of the version the write produces, in the same atomic write; null
 * stores none.</li>
 * </ul>
 * Start with {@link #of} and add what the write needs.
 */
public record StepWrite(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion, String note,
        String actor, Idempotency idempotency, StepTraceEntry trace) {

    public StepWrite {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(patch, "patch");
        Objects.requireNonNull(expectedVersion, "expectedVersion");
    }

    /** A write of {@code patch} to any current version, with no owner check, key, note, actor or trace. */
    public static StepWrite of(String sessionId, SessionPatch patch) {
        return new StepWrite(sessionId, null, patch, OptionalLong.empty(), null, null, null, null);
    }

    public StepWrite ownedBy(String owner) {
        return new StepWrite(sessionId, owner, patch, expectedVersion, note, actor, idempotency, trace);
    }

    public StepWrite expecting(long version) {
        return expecting(OptionalLong.of(version));
    }

    public StepWrite expecting(OptionalLong version) {
        return new StepWrite(sessionId, owner, patch, version, note, actor, idempotency, trace);
    }

    public StepWrite noting(String note) {
        return new StepWrite(sessionId, owner, patch, expectedVersion, note, actor, idempotency, trace);
    }

    public StepWrite by(String actor) {
        return new StepWrite(sessionId, owner, patch, expectedVersion, note, actor, idempotency, trace);
    }

    public StepWrite keyed(Idempotency idempotency) {
        return new StepWrite(sessionId, owner, patch, expectedVersion, note, actor, idempotency, trace);
    }

    public StepWrite traced(StepTraceEntry trace) {
        return new StepWrite(sessionId, owner, patch, expectedVersion, note, actor, idempotency, trace);
    }
}
