package dev.mnemos.metrics;

import dev.mnemos.injection.SessionMemoryUnavailableException;
import dev.mnemos.injection.StepWriteConflictException;
import dev.mnemos.profile.ProfileUnavailableException;
import dev.mnemos.promotion.PromotionReport;
import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.session.StaleVersionException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * The counters an operator alerts on (docs/operations.md "Alerts"). Every name starts with {@code mnemos.}:
 * <ul>
 * <li>{@code mnemos.step.writes{path=rest|agent, outcome=written|stale|conflict|rejected|unavailable}}</li>
 * <li>{@code mnemos.step.write.retries} — compare-and-set retries of the agent's step write-back</li>
 * <li>{@code mnemos.profile.loads{status=loaded|missing}} — profile reads before a step</li>
 * <li>{@code mnemos.profile.writes{operation, outcome=ok|rejected|unavailable}}</li>
 * <li>{@code mnemos.promotion.decisions{verdict=PROMOTE|PENDING|REJECT}}</li>
 * <li>{@code mnemos.session.ends{outcome=ended|unavailable|failed}}</li>
 * <li>{@code mnemos.store.unavailable{store=redis|postgres}} — each time a store did not answer</li>
 * <li>{@code mnemos.model.calls{ai=step|extraction|reconcile, outcome=ok|failed}} — model call latency (timer)</li>
 * <li>{@code mnemos.model.fallbacks{ai=extraction|reconcile, reason=failed|unusable}} — the deterministic path
 * was taken because the model failed, timed out or answered nothing usable</li>
 * <li>{@code mnemos.block.tokens} (summary) and {@code mnemos.block.over.budget} — the injected memory block</li>
 * <li>{@code mnemos.archive.writes{outcome=ok|failed}} — ended sessions written to the Postgres archive</li>
 * <li>{@code mnemos.step.connections{state=active|idle|waiting}} (gauges) — the step's blocking Redis
 * connections ({@code StepConnections}): in use, open and free, and steps waiting for one</li>
 * </ul>
 */
@ApplicationScoped
@io.quarkus.runtime.Startup // series exist (at zero) from boot, so alerts and dashboards never see gaps
public class MnemosMeters {

    public static final String STEP_WRITES = "mnemos.step.writes";
    public static final String STEP_WRITE_RETRIES = "mnemos.step.write.retries";
    public static final String PROFILE_LOADS = "mnemos.profile.loads";
    public static final String PROFILE_WRITES = "mnemos.profile.writes";
    public static final String PROMOTION_DECISIONS = "mnemos.promotion.decisions";
    public static final String SESSION_ENDS = "mnemos.session.ends";
    public static final String STORE_UNAVAILABLE = "mnemos.store.unavailable";
    public static final String MODEL_CALLS = "mnemos.model.calls";
    public static final String MODEL_FALLBACKS = "mnemos.model.fallbacks";
    public static final String BLOCK_TOKENS = "mnemos.block.tokens";
    public static final String BLOCK_OVER_BUDGET = "mnemos.block.over.budget";
    public static final String BLOCK_RENDERED_AHEAD = "mnemos.block.rendered.ahead";
    public static final String ARCHIVE_WRITES = "mnemos.archive.writes";

    private final MeterRegistry registry;

    public MnemosMeters(MeterRegistry registry) {
        this.registry = registry;
        // Registered up front so dashboards and alerts see zeros rather than absent series.
        for (String outcome : new String[] { "written", "stale", "conflict", "rejected", "unavailable" }) {
            stepWrites(registry, "rest", outcome);
            stepWrites(registry, "agent", outcome);
        }
        for (String store : new String[] { "redis", "postgres" }) {
            unavailable(registry, store);
        }
        for (String verdict : new String[] { "PROMOTE", "PENDING", "REJECT" }) {
            decisions(registry, verdict);
        }
        for (String ai : new String[] { "extraction", "reconcile" }) {
            modelCalls(registry, ai, "ok");
            modelCalls(registry, ai, "failed");
            modelFallbacks(registry, ai, "failed");
            modelFallbacks(registry, ai, "unusable");
        }
        archiveWrites(registry, "ok");
        archiveWrites(registry, "failed");
        for (String operation : new String[] { "add", "correct", "forget", "instruct", "import", "confirm", "reject" }) {
            for (String outcome : new String[] { "ok", "rejected", "unavailable" }) {
                profileWrites(operation, outcome);
            }
        }
    }

    /** A step write through the REST API: counts its outcome, and a store outage. */
    public <T> T restStepWrite(Supplier<T> write) {
        try {
            T result = write.get();
            stepWrites(registry, "rest", "written").increment();
            return result;
        } catch (RuntimeException e) {
            stepWriteFailed(registry, "rest", e);
            throw e;
        }
    }

    /** As {@link #restStepWrite(Supplier)}, for a write that completes later. */
    public <T> io.smallrye.mutiny.Uni<T> restStepWrite(io.smallrye.mutiny.Uni<T> write) {
        return write.onItem().invoke(() -> stepWrites(registry, "rest", "written").increment())
                .onFailure().invoke(e -> stepWriteFailed(registry, "rest",
                        e instanceof RuntimeException r ? r : new IllegalStateException(e)));
    }

    /** A profile write (add, correct, forget, instruct, import, confirm, reject). */
    public <T> T profileWrite(String operation, Supplier<T> write) {
        try {
            T result = write.get();
            profileWrites(operation, "ok").increment();
            return result;
        } catch (RuntimeException e) {
            boolean down = postgresDown(e);
            profileWrites(operation, down ? "unavailable" : "rejected").increment();
            if (down) {
                unavailable(registry, "postgres").increment();
            }
            throw e;
        }
    }

    /** {@code POST /sessions/{id}/end}: the verdicts of a report, or the outage that kept the session. */
    public PromotionReport sessionEnd(Supplier<PromotionReport> end) {
        try {
            PromotionReport report = end.get();
            registry.counter(SESSION_ENDS, "outcome", "ended").increment();
            decisions(registry, "PROMOTE").increment(size(report.promoted()));
            decisions(registry, "PENDING").increment(size(report.pending()));
            decisions(registry, "REJECT").increment(size(report.rejected()));
            return report;
        } catch (RuntimeException e) {
            boolean postgres = postgresDown(e);
            boolean redis = redisDown(e);
            registry.counter(SESSION_ENDS, "outcome", postgres || redis ? "unavailable" : "failed").increment();
            if (postgres || redis) {
                unavailable(registry, postgres ? "postgres" : "redis").increment();
            }
            throw e;
        }
    }

    /** The profile could not be read before a step (the step goes on without it). */
    public void profileUnavailable() {
        unavailable(registry, "postgres").increment();
    }

    /** A profile write committed but its revision's copy in Redis could not be raised (ProfileRevisions). */
    public void profileRevisionCopyFailed() {
        registry.counter("mnemos.profile.revision.copy.failures").increment();
        unavailable(registry, "redis").increment();
    }

    /** Gauges of the step's blocking Redis connections (StepConnections). */
    public void stepConnections(org.apache.commons.pool2.impl.GenericObjectPool<?> pool) {
        io.micrometer.core.instrument.Gauge.builder("mnemos.step.connections", pool, p -> p.getNumActive())
                .tag("state", "active").register(registry);
        io.micrometer.core.instrument.Gauge.builder("mnemos.step.connections", pool, p -> p.getNumIdle())
                .tag("state", "idle").register(registry);
        io.micrometer.core.instrument.Gauge.builder("mnemos.step.connections", pool, p -> p.getNumWaiters())
                .tag("state", "waiting").register(registry);
    }

    // ---- shared with dev.mnemos.injection.InjectionMetrics (the agent path) --------------------------

    public static void stepWriteFailed(MeterRegistry registry, String path, Throwable e) {
        String outcome;
        if (redisDown(e)) {
            outcome = "unavailable";
            unavailable(registry, "redis").increment();
        } else if (e instanceof StaleVersionException) {
            outcome = "stale";
        } else if (e instanceof StepWriteConflictException || e instanceof SessionEndedException) {
            outcome = "conflict";
        } else {
            outcome = "rejected";
        }
        stepWrites(registry, path, outcome).increment();
    }

    public static Counter stepWrites(MeterRegistry registry, String path, String outcome) {
        return Counter.builder(STEP_WRITES).description("session step writes by path and outcome")
                .tag("path", path).tag("outcome", outcome).register(registry);
    }

    /** Latency of a model call made by Mnemos (or of the annotated AI-service method, {@code ai=step}). */
    public static Timer modelCalls(MeterRegistry registry, String ai, String outcome) {
        return Timer.builder(MODEL_CALLS).description("model call latency by caller and outcome").tag("ai", ai)
                .tag("outcome", outcome).publishPercentiles(0.5, 0.99).register(registry);
    }

    /** Runs a model call of {@code ai} and records its latency by outcome. */
    public static <T> T timedModelCall(MeterRegistry registry, String ai, Supplier<T> call) {
        long start = System.nanoTime();
        try {
            T answer = call.get();
            modelCalls(registry, ai, "ok").record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
            return answer;
        } catch (RuntimeException e) {
            modelCalls(registry, ai, "failed").record(System.nanoTime() - start,
                    java.util.concurrent.TimeUnit.NANOSECONDS);
            throw e;
        }
    }

    /** The deterministic path was taken instead of the model's answer. */
    public static Counter modelFallbacks(MeterRegistry registry, String ai, String reason) {
        return Counter.builder(MODEL_FALLBACKS).description("model answers replaced by the deterministic path")
                .tag("ai", ai).tag("reason", reason).register(registry);
    }

    public static Counter archiveWrites(MeterRegistry registry, String outcome) {
        return Counter.builder(ARCHIVE_WRITES).description("ended sessions written to the Postgres archive")
                .tag("outcome", outcome).register(registry);
    }

    public static Counter unavailable(MeterRegistry registry, String store) {
        return Counter.builder(STORE_UNAVAILABLE).description("calls that found Redis or Postgres unavailable")
                .tag("store", store).register(registry);
    }

    static boolean redisDown(Throwable e) {
        return e instanceof SessionStoreUnavailableException || e instanceof SessionMemoryUnavailableException
                || e instanceof TimeoutException;
    }

    static boolean postgresDown(Throwable e) {
        if (e instanceof ProfileUnavailableException) {
            return true;
        }
        return ProfileUnavailableException.isTransient(e);
    }

    private static Counter decisions(MeterRegistry registry, String verdict) {
        return Counter.builder(PROMOTION_DECISIONS).description("promotion decisions at session end by verdict")
                .tag("verdict", verdict.toUpperCase(Locale.ROOT)).register(registry);
    }

    private Counter profileWrites(String operation, String outcome) {
        return Counter.builder(PROFILE_WRITES).description("profile writes by operation and outcome")
                .tag("operation", operation).tag("outcome", outcome).register(registry);
    }

    private static int size(java.util.List<?> list) {
        return list == null ? 0 : list.size();
    }
}
