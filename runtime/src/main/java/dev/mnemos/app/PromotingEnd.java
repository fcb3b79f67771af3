package dev.mnemos.app;

import dev.mnemos.promotion.PromotionMeters;
import dev.mnemos.promotion.PromotionReport;
import dev.mnemos.promotion.PromotionService;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.function.Supplier;

/**
 * Ending a session with the profile layer: promotion, archive, clear ({@link PromotionService}), counted by
 * {@link PromotionMeters}. Left out of the build of an application without Hibernate ORM and Flyway.
 */
@ApplicationScoped
public class PromotingEnd implements SessionEnd {

    private final PromotionService promotion;
    private final PromotionMeters meters;

    PromotingEnd(PromotionService promotion, PromotionMeters meters) {
        this.promotion = promotion;
        this.meters = meters;
    }

    @Override
    public PromotionReport end(String sessionId, String actor) {
        return promotion.end(sessionId, actor);
    }

    @Override
    public PromotionReport counted(Supplier<PromotionReport> request) {
        return meters.sessionEnd(request);
    }
}
