package dev.mnemos.injection.step;

import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.StepWriteMeters;
import dev.mnemos.llm.ModelMeters;
import dev.mnemos.metrics.Outages;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Micrometer meters of the agent's step cycle: timers {@code mnemos.injection.load}, {@code .render},
 * {@code .write} and {@code mnemos.model.calls{ai=step,outcome}}; the summary {@code mnemos.block.tokens} and the
 * counters {@code mnemos.block.over.budget}; counters
 * {@code mnemos.step.writes{path=agent,outcome}},
 * {@code mnemos.step.write.retries},
 * {@code mnemos.profile.loads{status}} and {@code mnemos.store.unavailable{store=redis}} (see {@link StepWriteMeters}).
 */
@ApplicationScoped
@Startup // series exist (at zero) from boot, so alerts and dashboards never see gaps
class InjectionMetrics {

    private final Timer load;
    private final Timer render;
    private final Timer write;
    private final MeterRegistry registry;
    private final Counter retries;
    private final Timer modelOk;
    private final Timer modelFailed;
    private final DistributionSummary blockTokens;
    private final Counter overBudget;
    private final Counter written;
    private final Map<ProfileSnapshot.Status, Counter> profileLoads = new EnumMap<>(
            ProfileSnapshot.Status.class);

    public InjectionMetrics(MeterRegistry registry) {
        this.load = timer(registry, "load", "session and profile read before a step");
        this.render = timer(registry, "render", "memory block rendering");
        this.write = timer(registry, "write", "step write-back after the model call");
        this.registry = registry;
        this.retries = Counter.builder("mnemos.step.write.retries")
                .description("compare-and-set retries of the agent's step write-back").register(registry);
        this.modelOk = ModelMeters.modelCalls(registry, "step", "ok");
        this.modelFailed = ModelMeters.modelCalls(registry, "step", "failed");
        this.blockTokens = DistributionSummary.builder("mnemos.block.tokens")
                .description("estimated tokens of the memory block injected before a step").baseUnit("tokens")
                .publishPercentiles(0.5, 0.99).register(registry);
        this.overBudget = Counter.builder("mnemos.block.over.budget")
                .description("memory blocks that still exceeded the token budget after trimming").register(registry);
        this.written = StepWriteMeters.stepWrites(registry, "agent", "written");
        for (var status : ProfileSnapshot.Status.values()) {
            profileLoads.put(status, profileLoads(status));
        }
    }

    void load(long nanos) {
        load.record(nanos, TimeUnit.NANOSECONDS);
    }

    void render(long nanos) {
        render.record(nanos, TimeUnit.NANOSECONDS);
    }

    void write(long nanos) {
        write.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The annotated AI-service method itself (the model call), by outcome. */
    void model(long nanos, boolean ok) {
        (ok ? modelOk : modelFailed).record(nanos, TimeUnit.NANOSECONDS);
    }

    void injected(MemoryBlock block) {
        blockTokens.record(block.tokens());
        if (block.overBudget()) {
            overBudget.increment();
        }
    }

    void written(int casRetries) {
        written.increment();
        retries.increment(casRetries);
    }

    void writeFailed(Throwable e) {
        StepWriteMeters.failed(registry, "agent", e);
    }

    void loadFailed(Throwable e) {
        if (StepWriteMeters.redisDown(e)) {
            Outages.counter(registry, "redis").increment();
        }
    }

    void profileLoaded(ProfileSnapshot.Status status) {
        profileLoads.get(status).increment();
    }

    private Counter profileLoads(ProfileSnapshot.Status status) {
        return Counter.builder("mnemos.profile.loads").description("profile reads before a step by status")
                .tag("status", status.name().toLowerCase(Locale.ROOT)).register(registry);
    }

    private static Timer timer(MeterRegistry registry, String phase, String description) {
        return Timer.builder("mnemos.injection." + phase).description(description).register(registry);
    }
}
