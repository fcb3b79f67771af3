package dev.mnemos.injection;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.concurrent.TimeUnit;

/** Micrometer timers of the step phases: {@code mnemos.injection.load}, {@code .render}, {@code .write}. */
@ApplicationScoped
public class InjectionMetrics {

    private final Timer load;
    private final Timer render;
    private final Timer write;

    public InjectionMetrics(MeterRegistry registry) {
        this.load = timer(registry, "load", "session and profile read before a step");
        this.render = timer(registry, "render", "memory block rendering");
        this.write = timer(registry, "write", "step write-back after the model call");
    }

    void load(long nanos) { load.record(nanos, TimeUnit.NANOSECONDS); }
    void render(long nanos) { render.record(nanos, TimeUnit.NANOSECONDS); }
    void write(long nanos) { write.record(nanos, TimeUnit.NANOSECONDS); }

    private static Timer timer(MeterRegistry registry, String phase, String description) {
        return Timer.builder("mnemos.injection." + phase).description(description).register(registry);
    }
}
