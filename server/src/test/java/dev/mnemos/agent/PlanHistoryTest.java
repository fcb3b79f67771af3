package dev.mnemos.agent;

import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Finding the session version to roll back to for "go back to plan vN". */
class PlanHistoryTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void theLastVersionAtWhichThePlanWasNewestIsTheTarget() {
        List<SessionEvent> log = List.of(create(1), patch(2, null), plan(3), patch(4, null), plan(5), patch(6, null));
        assertThat(PlanHistory.sessionVersionOf(log, 1)).hasValue(4);
        assertThat(PlanHistory.sessionVersionOf(log, 2)).hasValue(6);
        assertThat(PlanHistory.sessionVersionOf(log, 3)).isEmpty();
    }

    @Test
    void aRollbackResetsTheNewestPlanToTheRestoredState() {
        List<SessionEvent> log = List.of(create(1), plan(2), plan(3), rollback(4, 1), plan(5), patch(6, null));
        assertThat(PlanHistory.sessionVersionOf(log, 1)).hasValue(4);
        assertThat(PlanHistory.sessionVersionOf(log, 2)).as("the newer plan v2 drafted after the rollback").hasValue(6);
    }

    @Test
    void noPlanEverMeansNoTarget() {
        assertThat(PlanHistory.sessionVersionOf(List.of(create(1), patch(2, null)), 1)).isEmpty();
    }

    private static SessionEvent create(long v) {
        return new SessionEvent(v, SessionEvent.Type.CREATE, T, "t", null, null, null, state(v, List.of()));
    }

    private static SessionEvent plan(long v) {
        return patch(v, new SessionPatch.NewPlan("plan at " + v, null, null));
    }

    private static SessionEvent patch(long v, SessionPatch.NewPlan plan) {
        SessionPatch patch = SessionPatch.builder().stepPointer(1, "x").build();
        if (plan != null) {
            patch = SessionPatch.builder().addPlan(plan.content(), null, null).build();
        }
        return new SessionEvent(v, SessionEvent.Type.PATCH, T, "t", null, patch, null, null);
    }

    private static SessionEvent rollback(long v, int plans) {
        List<PlanVersion> kept = IntStream.rangeClosed(1, plans)
                .mapToObj(i -> new PlanVersion(i, "p" + i, null, null, T)).toList();
        return new SessionEvent(v, SessionEvent.Type.ROLLBACK, T, "t", null, null, 2L, state(v, kept));
    }

    private static SessionState state(long v, List<PlanVersion> plans) {
        return new SessionState("s", "u", v, T, T, SessionState.Status.ACTIVE, null, null, List.of(), List.of(),
                Map.of(), null, plans, List.of(), null, null);
    }
}
