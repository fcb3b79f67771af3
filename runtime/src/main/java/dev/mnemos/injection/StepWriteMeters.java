package dev.mnemos.injection;

import dev.mnemos.metrics.Outages;
import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.session.StaleVersionException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.util.function.Supplier;

/**
 * {@code mnemos.step.writes{path=rest|agent, outcome=written|stale|conflict|rejected|unavailable}}: session
 * step writes through the REST API and the agent's write-back, with the Redis outages they met.
 */
@ApplicationScoped
@Startup
public class StepWriteMeters {

    public static final String STEP_WRITES = "mnemos.step.writes";
    private static final String[] OUTCOMES = { "written", "stale", "conflict", "rejected", "unavailable" };

    private final MeterRegistry registry;

    public StepWriteMeters(MeterRegistry registry) {
        this.registry = registry;
        for (String outcome : OUTCOMES) {
            stepWrites(registry, "rest", outcome);
            stepWrites(registry, "agent", outcome);
        }
    }

    /** A step write through the REST API: counts its outcome, and a store outage. */
    public <T> T rest(Supplier<T> write) {
        try {
            T result = write.get();
            stepWrites(registry, "rest", "written").increment();
            return result;
        } catch (RuntimeException e) {
            failed(registry, "rest", e);
            throw e;
        }
    }

    /** As {@link #rest(Supplier)}, for a write that completes later. */
    public <T> Uni<T> rest(Uni<T> write) {
        return write.onItem().invoke(() -> stepWrites(registry, "rest", "written").increment())
                .onFailure().invoke(e -> failed(registry, "rest", e));
    }

    public static void failed(MeterRegistry registry, String path, Throwable e) {
        String outcome;
        if (redisDown(e)) {
            outcome = "unavailable";
            Outages.counter(registry, "redis").increment();
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

    /** Whether a failure means Redis did not answer (or answered too late). */
    public static boolean redisDown(Throwable e) {
        return e instanceof SessionStoreUnavailableException || e instanceof SessionMemoryUnavailableException
                || e instanceof TimeoutException;
    }
}
