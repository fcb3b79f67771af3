package dev.mnemos.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@code mnemos.store.unavailable{store=redis|postgres}}: each time a store did not answer. Every feature
 * counts its own outages here; the series exist (at zero) from boot, so alerts never see gaps.
 */
@ApplicationScoped
@Startup
public class Outages {

    public static final String STORE_UNAVAILABLE = "mnemos.store.unavailable";

    private final Counter redis;
    private final Counter postgres;

    public Outages(MeterRegistry registry) {
        this.redis = counter(registry, "redis");
        this.postgres = counter(registry, "postgres");
    }

    public void redis() {
        redis.increment();
    }

    public void postgres() {
        postgres.increment();
    }

    public static Counter counter(MeterRegistry registry, String store) {
        return Counter.builder(STORE_UNAVAILABLE).description("calls that found Redis or Postgres unavailable")
                .tag("store", store).register(registry);
    }
}
