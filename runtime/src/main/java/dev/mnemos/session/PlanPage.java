package dev.mnemos.session;

import java.util.List;

/**
 * A page of a session's plan versions, oldest first, and how many plan versions the current state has.
 *
 * @param next the first plan version of the next page, or null when this page holds the newest one
 */
public record PlanPage(List<PlanVersion> plans, int total, Integer next) {

    public PlanPage {
        plans = List.copyOf(plans);
    }
}
