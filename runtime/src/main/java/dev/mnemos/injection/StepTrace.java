package dev.mnemos.injection;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;

/**
 * What one {@link SessionMemory} step read, injected and wrote: enough to answer "was it written,
 * was the newest state read, was it injected" for any step. Stored per written version.
 *
 * @param version the session version this step wrote
 * @param step the step name
 * @param method {@code Interface.method} of the AI service
 * @param tools the tools the step's model call ran, in order (empty when none ran); null when they were not recorded
 *        (a streamed step, or a trace written before tools were recorded)
 */
public record StepTrace(String sessionId, String userId, long version, String step, String method, Instant at,
        Read read, Injected injected, Written written, Timings timings, List<ToolRun> tools) {

    /** A trace without recorded tool runs. */
    public StepTrace(String sessionId, String userId, long version, String step, String method, Instant at, Read read,
            Injected injected, Written written, Timings timings) {
        this(sessionId, userId, version, step, method, at, read, injected, written, timings, null);
    }

    /**
     * @param sessionVersion the version loaded before the model call
     * @param profile LOADED, or MISSING when the step went on without the profile
     * @param profileCache whether the profile came from its read cache
     * @param profileFacts how many active facts were read
     */
    public record Read(long sessionVersion, ProfileSnapshot.Status profile, ProfileSnapshot.Cache profileCache,
            int profileFacts) {
    }

    /**
     * @param sha256 hash of the injected block
     * @param chars its length in characters
     * @param tokens its estimated tokens, against {@code budget}
     * @param plans plan versions rendered in full
     * @param profileFacts ids of the profile facts rendered
     * @param overrides this turn's overrides of profile preferences
     * @param block the block itself
     */
    public record Injected(String sha256, int chars, int tokens, int budget, boolean overBudget, List<Integer> plans,
            List<String> profileFacts, List<TurnOverride> overrides, String block) {
    }

    /** This trace with {@code block} as its injected block. */
    public StepTrace withBlock(String block) {
        Injected i = injected;
        return new StepTrace(sessionId, userId, version, step, method, at, read,
                new Injected(i.sha256(), i.chars(), i.tokens(), i.budget(), i.overBudget(), i.plans(), i.profileFacts(),
                        i.overrides(), block),
                written, timings, tools);
    }

    /**
     * @param basedOn the version the write was a compare-and-set on (the loaded one, or a re-read one after a conflict)
     * @param retries compare-and-set attempts lost before this one won
     * @param fields the patch fields the step wrote
     */
    @Schema(name = "StepTraceWrite")
    public record Written(long basedOn, long version, int retries, List<String> fields) {
    }

    /**
     * Microseconds spent in each phase. The trace is stored by the step's own write, so it is made
     * before that write's round trip: {@code writeMicros} is the write up to it (the writer, a due
     * summary fold, compare-and-set attempts lost); the whole write, round trip included, is the
     * {@code mnemos.step.write} span and the write timer.
     *
     * @param modelMicros the model call; for a streamed step, from the call to the stream's end
     * @param firstTokenMicros for a streamed step, from the call to its first token (null when no token came); null for a
     *        step whose answer is returned whole
     */
    public record Timings(long loadMicros, long renderMicros, long modelMicros, long writeMicros, Long firstTokenMicros) {

        /** The timings of a step whose answer is returned whole: no time to first token. */
        public Timings(long loadMicros, long renderMicros, long modelMicros, long writeMicros) {
            this(loadMicros, renderMicros, modelMicros, writeMicros, null);
        }
    }
}
