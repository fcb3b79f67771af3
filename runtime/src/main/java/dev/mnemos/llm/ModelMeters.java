package dev.mnemos.llm;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Meters of the model calls Mnemos makes: {@code mnemos.model.calls{ai=step|extraction|reconcile, outcome}}
 * (latency) and {@code mnemos.model.fallbacks{ai, reason=failed|unusable}}, the deterministic path taken
 * because the model failed, timed out or answered nothing usable.
 */
@ApplicationScoped
@Startup
public class ModelMeters {

    public static final String MODEL_CALLS = "mnemos.model.calls";
    public static final String MODEL_FALLBACKS = "mnemos.model.fallbacks";

    public ModelMeters(MeterRegistry registry) {
        for (String ai : new String[] { "extraction", "reconcile" }) {
            modelCalls(registry, ai, "ok");
            modelCalls(registry, ai, "failed");
            modelFallbacks(registry, ai, "failed");
            modelFallbacks(registry, ai, "unusable");
        }
    }

    /** Latency of a model call made by Mnemos (or of the annotated AI-service method, {@code ai=step}). */
    public static Timer modelCalls(MeterRegistry registry, String ai, String outcome) {
        return Timer.builder(MODEL_CALLS).description("model call latency by caller and outcome").tag("ai", ai)
                .tag("outcome", outcome).publishPercentiles(0.5, 0.99).register(registry);
    }

    /** Runs a model call of {@code ai} and records its latency by outcome. */
    public static <T> T timed(MeterRegistry registry, String ai, Supplier<T> call) {
        long start = System.nanoTime();
        try {
            T answer = call.get();
            modelCalls(registry, ai, "ok").record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return answer;
        } catch (RuntimeException e) {
            modelCalls(registry, ai, "failed").record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            throw e;
        }
    }

    /** The deterministic path was taken instead of the model's answer. */
    public static Counter modelFallbacks(MeterRegistry registry, String ai, String reason) {
        return Counter.builder(MODEL_FALLBACKS).description("model answers replaced by the deterministic path")
                .tag("ai", ai).tag("reason", reason).register(registry);
    }
}
