package dev.mnemos.promotion;

import dev.mnemos.injection.StepWriteMeters;
import dev.mnemos.metrics.Outages;
import dev.mnemos.profile.ProfileMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * {@code mnemos.session.ends{outcome=ended|unavailable|failed}} and
 * {@code mnemos.promotion.decisions{verdict=PROMOTE|PENDING|REJECT}}, with the outages an end met.
 */
@ApplicationScoped
@Startup
public class PromotionMeters {

    public static final String SESSION_ENDS = "mnemos.session.ends";
    public static final String PROMOTION_DECISIONS = "mnemos.promotion.decisions";

    private final MeterRegistry registry;
    private final Outages outages;

    public PromotionMeters(MeterRegistry registry, Outages outages) {
        this.registry = registry;
        this.outages = outages;
        for (String verdict : new String[] { "PROMOTE", "PENDING", "REJECT" }) {
            decisions(verdict);
        }
    }

    /** {@code POST /sessions/{id}/end}: the verdicts of a report, or the outage that kept the session. */
    public PromotionReport sessionEnd(Supplier<PromotionReport> end) {
        try {
            PromotionReport report = end.get();
            registry.counter(SESSION_ENDS, "outcome", "ended").increment();
            decisions("PROMOTE").increment(size(report.promoted()));
            decisions("PENDING").increment(size(report.pending()));
            decisions("REJECT").increment(size(report.rejected()));
            return report;
        } catch (RuntimeException e) {
            boolean postgres = ProfileMeters.postgresDown(e);
            boolean redis = StepWriteMeters.redisDown(e);
            registry.counter(SESSION_ENDS, "outcome", postgres || redis ? "unavailable" : "failed").increment();
            if (postgres) {
                outages.postgres();
            } else if (redis) {
                outages.redis();
            }
            throw e;
        }
    }

    private Counter decisions(String verdict) {
        return Counter.builder(PROMOTION_DECISIONS).description("promotion decisions at session end by verdict")
                .tag("verdict", verdict.toUpperCase(Locale.ROOT)).register(registry);
    }

    private static int size(List<?> list) {
        return list == null ? 0 : list.size();
    }
}
