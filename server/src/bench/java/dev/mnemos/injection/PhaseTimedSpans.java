package dev.mnemos.injection;

import dev.mnemos.tracing.MnemosSpans;
import io.opentelemetry.api.trace.Tracer;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The benchmarks' spans: {@link MnemosSpans} that also adds up the time of each span by name and by the side
 * {@link EncryptionCostBenchmark} runs at the time (its blocks run one at a time), so a row's difference can be told by
 * phase ({@code mnemos.step.load}, {@code .render}, {@code .write}; {@code mnemos.end.promote}, {@code .archive},
 * {@code .clear}). Enabled only by that benchmark's test profile.
 */
@Alternative
@Singleton
public class PhaseTimedSpans extends MnemosSpans {

    /** Nanoseconds and count by "side / span name". */
    static final Map<String, LongAdder[]> TIMES = new ConcurrentHashMap<>();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The side whose block runs now. */
    static volatile String side = "none";

    public PhaseTimedSpans(Instance<Tracer> tracers) {
        super(tracers);
    }

    @Override
    public <T> T in(String name, String sessionId, Supplier<T> work) {
        long start = System.nanoTime();
        long cpu = THREADS.getCurrentThreadCpuTime();
        try {
            return super.in(name, sessionId, work);
        } finally {
            add(name, System.nanoTime() - start);
            add(name + " (CPU of its thread)", THREADS.getCurrentThreadCpuTime() - cpu);
        }
    }

    @Override
    public void phase(String name, String sessionId, Instant start, long nanos) {
        super.phase(name, sessionId, start, nanos);
        add(name, nanos);
    }

    private static void add(String name, long nanos) {
        LongAdder[] sum = TIMES.computeIfAbsent(side + " / " + name, k -> new LongAdder[] { new LongAdder(), new LongAdder() });
        sum[0].add(nanos);
        sum[1].increment();
    }
}
