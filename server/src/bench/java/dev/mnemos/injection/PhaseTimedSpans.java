package dev.mnemos.injection;

import dev.mnemos.tracing.MnemosSpans;
import io.opentelemetry.api.trace.Tracer;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The benchmarks' spans: {@link MnemosSpans} that also adds up the time of each span by name and by the side
 * {@link EncryptionCostBenchmark} runs at the time (its blocks run one at a time), so a row's difference can be told by
 * phase ({@code mnemos.end.promote}, {@code .archive}, {@code .clear}). Enabled only by that benchmark's test profile.
 */
@Alternative
@Singleton
public class PhaseTimedSpans extends MnemosSpans {

    /** Nanoseconds and count by "side / span name". */
    static final Map<String, LongAdder[]> TIMES = new ConcurrentHashMap<>();
    /** The side whose block runs now. */
    static volatile String side = "none";

    public PhaseTimedSpans(Instance<Tracer> tracers) {
        super(tracers);
    }

    @Override
    public <T> T in(String name, String sessionId, Supplier<T> work) {
        long start = System.nanoTime();
        try {
            return super.in(name, sessionId, work);
        } finally {
            LongAdder[] sum = TIMES.computeIfAbsent(side + " / " + name,
                    k -> new LongAdder[] { new LongAdder(), new LongAdder() });
            sum[0].add(System.nanoTime() - start);
            sum[1].increment();
        }
    }
}
