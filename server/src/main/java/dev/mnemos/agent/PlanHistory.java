package dev.mnemos.agent;

import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionEvent;

import java.util.List;
import java.util.OptionalLong;

/**
 * Finds, in a session's replay log, the last session version at which a given plan version was the
 * newest plan: going back to "plan v1" is a rollback of the session to that version.
 */
public final class PlanHistory {

    private PlanHistory() {
    }

    /** @return the session version, or empty when plan {@code planVersion} never was the newest plan */
    public static OptionalLong sessionVersionOf(List<SessionEvent> events, int planVersion) {
        int latest = 0;
        OptionalLong found = OptionalLong.empty();
        for (SessionEvent e : events) {
            latest = latestAfter(e, latest);
            if (latest == planVersion) {
                found = OptionalLong.of(e.version());
            }
        }
        return found;
    }

    private static int latestAfter(SessionEvent e, int latest) {
        if (e.state() != null) {
            PlanVersion plan = e.state().latestPlan();
            return plan == null ? 0 : plan.version();
        }
        return e.patch() != null && e.patch().addPlan() != null ? latest + 1 : latest;
    }
}
