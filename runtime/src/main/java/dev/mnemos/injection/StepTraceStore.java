package dev.mnemos.injection;

import dev.mnemos.session.StepTraceEntry;

import java.util.List;
import java.util.Optional;

/**
 * Where step traces are kept, per session and written version. A trace is written by its step's own
 * write ({@link dev.mnemos.session.SessionStore#apply(String, String, dev.mnemos.session.SessionPatch, long, String,
 * String, dev.mnemos.session.Idempotency, StepTraceEntry)}), so a step and its trace are stored together or not at
 * all; this store makes the entry that write carries and reads traces back.
 */
public interface StepTraceStore {

    /** {@code trace} as the step's write stores it. */
    StepTraceEntry entry(StepTrace trace);

    /** The trace of the step that wrote {@code version}, or empty (never written, expired or beyond retention). */
    Optional<StepTrace> find(String sessionId, long version);

    /** Every retained trace of the session, oldest first; empty when none. */
    List<StepTrace> all(String sessionId);
}
