package dev.mnemos.injection;

import dev.mnemos.session.Constraint;
import dev.mnemos.session.Observation;
import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.StepPointer;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Hand-built session states for pure tests. */
public final class States {

    public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private States() {
    }

    public static SessionState state(String goal, List<Constraint> constraints, List<PlanVersion> plans, String summary) {
        return state(goal, constraints, plans, summary, Map.of(), List.of());
    }

    public static SessionState state(String goal, List<Constraint> constraints, List<PlanVersion> plans, String summary,
            Map<String, String> collected, List<Observation> observations) {
        return new SessionState("s-1", "u-1", 7, T0, T0, SessionState.Status.ACTIVE, goal, "context text",
                constraints, List.of("which dates?"), collected, new StepPointer(3, "plan"), plans, observations,
                summary, null);
    }

    public static PlanVersion plan(int version, String content) {
        return new PlanVersion(version, content, null, null, T0);
    }
}
