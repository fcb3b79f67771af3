package dev.mnemos.injection;

import java.util.List;
import java.util.Optional;

/** Where step traces are kept, per session and written version. */
public interface StepTraceStore {

    void save(StepTrace trace);

    /** The trace of the step that wrote {@code version}, or empty (never written, expired or beyond retention). */
    Optional<StepTrace> find(String sessionId, long version);

    /** Every retained trace of the session, oldest first; empty when none. */
    List<StepTrace> all(String sessionId);
}
