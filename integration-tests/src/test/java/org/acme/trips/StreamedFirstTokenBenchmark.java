package org.acme.trips;

import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Multi;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What Mnemos adds to a streamed step's time to first token: the same streamed question through the
 * application's {@code @SessionMemory} method and through a plain AI service, interleaved, against the
 * OpenAI-compatible stub (which answers at once, so the difference is Mnemos' read and render before the
 * call). Prints figures and asserts none; run by {@code .ci/bench/run.sh}, or
 * {@code ./mvnw -pl integration-tests -am test -Dtest=StreamedFirstTokenBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
class StreamedFirstTokenBenchmark {

    private static final int WARMUP = Integer.getInteger("bench.ttft.warmup", 300);
    private static final int CALLS = Integer.getInteger("bench.ttft.calls", 1000);
    /** Steps a session takes before the benchmark moves to a fresh one. */
    private static final int STEPS_PER_SESSION = 20;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    TripPlanner planner;
    @Inject
    PlainStreamer plain;
    @Inject
    StepTraceStore traces;

    private final List<String> sessions = new ArrayList<>();

    @Test
    void printsWhatMnemosAddsToTheTimeToFirstToken() throws IOException {
        run(WARMUP);
        sessions.clear();
        long[][] measured = run(CALLS);
        long[] withMnemos = measured[0];
        long[] stubAlone = measured[1];
        String report = String.join("\n",
                "streamed step, time to first token, " + CALLS + " calls each, interleaved (the stub answers at once):",
                line("plain AI service (model client + stub)", stubAlone),
                line("@SessionMemory streamed step", withMnemos),
                line("  of which the step's load (trace)", traced(StepTrace.Timings::loadMicros)),
                line("  of which the step's render (trace)", traced(StepTrace.Timings::renderMicros)),
                line("  model call to first token (trace)", traced(StepTrace.Timings::firstTokenMicros)),
                String.format(Locale.ROOT, "Mnemos adds: p50 %.3f ms, p99 %.3f ms", ms(p(withMnemos, 50) - p(stubAlone, 50)),
                        ms(p(withMnemos, 99) - p(stubAlone, 99))),
                "");
        System.out.println(report);
        Path out = Path.of("target", "bench", "first-token.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
    }

    /** {@code calls} streamed calls of each kind, alternating; their times to first token, nanoseconds. */
    private long[][] run(int calls) {
        long[] withMnemos = new long[calls];
        long[] stubAlone = new long[calls];
        String session = null;
        for (int i = 0; i < calls; i++) {
            if (i % STEPS_PER_SESSION == 0) {
                session = "ttft-" + UUID.randomUUID();
                sessions.add(session);
            }
            String id = session;
            withMnemos[i] = firstToken(() -> planner.stream(id, "What should I do on Saturday?"));
            stubAlone[i] = firstToken(() -> plain.stream("What should I do on Saturday?"));
        }
        return new long[][] { withMnemos, stubAlone };
    }

    /** From the call to its first item; the stream is read to its end (a cancelled step writes nothing). */
    private static long firstToken(Supplier<Multi<String>> call) {
        AtomicLong first = new AtomicLong();
        long start = System.nanoTime();
        call.get().onItem().invoke(token -> first.compareAndSet(0, System.nanoTime())).collect().asList().await()
                .atMost(WAIT);
        return first.get() - start;
    }

    /** One timing of every measured step's trace, in nanoseconds. */
    private long[] traced(Function<StepTrace.Timings, Long> micros) {
        return sessions.stream().flatMap(id -> traces.all(id).stream()).map(trace -> micros.apply(trace.timings()))
                .filter(Objects::nonNull).mapToLong(value -> value * 1000).toArray();
    }

    private static String line(String label, long[] nanos) {
        return String.format(Locale.ROOT, "%-40s p50 %.3f ms  p99 %.3f ms", label, ms(p(nanos, 50)), ms(p(nanos, 99)));
    }

    private static long p(long[] values, int percentile) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1)];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
