package dev.mnemos.injection.block;

import dev.mnemos.session.Constraint;
import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.StepPointer;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/** Sessions as the benchmark grows them, for the render tests. */
final class GrowingSessions {

    private GrowingSessions() {
    }

    /**
     * The benchmark's session after {@code step} steps: a collected answer each step (the last six kept), a plan
     * every 10th, a constraint every 25th, a summary line each step.
     */
    static SessionState state(int step) {
        Map<String, String> collected = new TreeMap<>();
        IntStream.rangeClosed(Math.max(1, step - 5), step)
                .forEach(i -> collected.put("answer." + i, "Day " + i + ": temples. ".repeat(4)));
        List<Constraint> constraints = IntStream.rangeClosed(1, 5 + step / 25)
                .mapToObj(i -> new Constraint("c" + i, "constraint " + i + " of the trip", Scope.TASK, "user")).toList();
        List<PlanVersion> plans = IntStream.rangeClosed(Math.max(1, step / 10 - 1), step / 10)
                .mapToObj(v -> new PlanVersion(v, "1. Arrive at Kyoto station.\n2. Visit the temples of the east.\n".repeat(10)
                        + "(v" + v + ")", v % 2 == 0 ? 0.8 : null, null, Instant.EPOCH))
                .toList();
        StringBuilder summary = new StringBuilder();
        IntStream.rangeClosed(1, step)
                .forEach(i -> summary.append("step ").append(i).append(": the user chose a temple.\n"));
        return new SessionState("s-memo", "u-memo", step, Instant.EPOCH, Instant.EPOCH, SessionState.Status.ACTIVE,
                "plan a 5-day trip to Kyoto and Nara in April", "two adults, first visit", constraints, List.of("which hotel?"),
                collected, new StepPointer(step, "answer"), plans, List.of(), summary.length() == 0 ? null : summary.toString(),
                null);
    }

    /** {@code s} with {@code collected} as its collected values. */
    static SessionState withCollected(SessionState s, Map<String, String> collected) {
        return new SessionState(s.sessionId(), s.userId(), s.version(), s.createdAt(), s.updatedAt(), s.status(), s.goal(),
                s.context(), s.constraints(), s.openQuestions(), collected, s.stepPointer(), s.plans(), s.observations(),
                s.summary(), s.forkedFrom());
    }
}
