package dev.mnemos.devmode.devui;

import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.ToolRun;

import java.util.List;

/**
 * One step trace as the Dev UI page lists it: which step wrote which version of which session, what it read, how
 * big the injected block was and where the time went (milliseconds), the block itself and the tools the step's model
 * call ran ({@code null} when the trace did not record them: a streamed step). {@code at} is ISO-8601.
 */
public record TraceLine(String sessionId, long version, String step, String method, String at, long readVersion,
        int retries, String profile, int tokens, int budget, double loadMillis, double renderMillis,
        double modelMillis, double writeMillis, String block, List<ToolRun> tools) {

    static TraceLine of(StepTrace trace) {
        StepTrace.Timings t = trace.timings();
        return new TraceLine(trace.sessionId(), trace.version(), trace.step(), trace.method(), String.valueOf(trace.at()),
                trace.read().sessionVersion(), trace.written().retries(), String.valueOf(trace.read().profile()),
                trace.injected().tokens(), trace.injected().budget(), millis(t.loadMicros()), millis(t.renderMicros()),
                millis(t.modelMicros()), millis(t.writeMicros()), trace.injected().block(), trace.tools());
    }

    private static double millis(long micros) {
        return micros / 1000.0;
    }
}
