package dev.mnemos.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The registry Mnemos' meters use when the application has no Micrometer extension: an empty composite, whose meters
 * count nothing and cost next to nothing. With {@code quarkus-micrometer} in the application, its registry is the
 * bean and this one is never made. Mnemos depends on Micrometer's API only, so an application without metrics does
 * not start Quarkus' Micrometer support for it.
 */
@Singleton
public class NoMeterRegistry {

    @Produces
    @DefaultBean
    @Singleton
    MeterRegistry registry() {
        return new CompositeMeterRegistry();
    }
}
