package dev.mnemos.injection;

import dev.mnemos.session.Constraint;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionPatch;

import java.util.stream.IntStream;

/**
 * The read-before-write benchmarks' workload ({@link InjectionBenchmark}, {@link EncryptionCostBenchmark}): a session's
 * start, its user's profile facts, and what the model answers at each step (a plan every 10th).
 */
final class BenchWorkload {

    /** Profile facts of each user. */
    static final int FACTS = 15;

    private static final String ANSWER = "Day 1: Fushimi Inari at dawn, then Tofuku-ji. ".repeat(6);
    private static final String PLAN = "1. Arrive at Kyoto station and leave luggage.\n2. Visit the temples of the east.\n"
            .repeat(10);

    private BenchWorkload() {
    }

    /** Whether step {@code i} writes a plan. */
    static boolean planStep(int i) {
        return i % 10 == 0;
    }

    /**
     * The model's answer at step {@code i} of session {@code sessionId}: each session's answers and plans its own (a real
     * session's are), since the same text in every session would be served from the shared memory of token counts,
     * which real steps rarely are. The first characters are the session's: the same lengths, so the same cuts, as the
     * same text.
     */
    static String answer(String sessionId, int i) {
        String own = sessionId.substring(0, 4);
        return planStep(i) ? own + PLAN.substring(4) + "(v" + i + ")" : own + ANSWER.substring(4) + i;
    }

    /** The text of profile fact {@code i} (1 to {@link #FACTS}). */
    static String fact(int i) {
        return "prefers option " + i + " when travelling in Japan";
    }

    /** The confidence of profile fact {@code i}. */
    static double confidence(int i) {
        return 0.5 + i / 40.0;
    }

    /** A session's start: its goal, context and five constraints. */
    static SessionPatch start() {
        SessionPatch.Builder patch = SessionPatch.builder().goal("plan a 5-day trip to Kyoto and Nara in April")
                .context("two adults, first visit");
        IntStream.rangeClosed(1, 5).forEach(
                i -> patch.addConstraint(new Constraint(null, "constraint " + i + " of the trip", Scope.TASK, "user")));
        return patch.build();
    }
}
