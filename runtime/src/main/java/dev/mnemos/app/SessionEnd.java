package dev.mnemos.app;

import dev.mnemos.promotion.PromotionReport;

import java.util.function.Supplier;

/**
 * How a live session ends. With the profile layer ({@link PromotingEnd}) its observations are promoted and it is
 * archived in Postgres; in an application with session memory only ({@link SessionOnlyEnd}) its keys are removed.
 */
public interface SessionEnd {

    /**
     * Ends the live session {@code sessionId}, whose owner the caller has checked, and reports what was done.
     *
     * @throws dev.mnemos.session.SessionNotFoundException when there is no such live session
     */
    PromotionReport end(String sessionId, String actor);

    /** Runs one whole end request (ownership check included), counting its outcome where meters are kept. */
    PromotionReport counted(Supplier<PromotionReport> request);
}
