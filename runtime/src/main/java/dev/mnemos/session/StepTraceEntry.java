package dev.mnemos.session;

/**
 * A step's trace, written by the step's own write ({@link SessionStore#apply(String, String, SessionPatch,
 * long, String, String, Idempotency, StepTraceEntry)}): stored as the trace of the version that write
 * produces, so a step and its trace are stored together or not at all, in one round trip.
 *
 * @param json the trace as stored
 * @param retention how many versions back traces are kept: older ones are dropped as the session grows
 */
public record StepTraceEntry(String json, int retention) {

    public StepTraceEntry {
        if (json == null || json.isEmpty()) {
            throw new IllegalArgumentException("a step trace needs content");
        }
        if (retention < 1) {
            throw new IllegalArgumentException("trace retention must be 1 or more, was " + retention);
        }
    }
}
