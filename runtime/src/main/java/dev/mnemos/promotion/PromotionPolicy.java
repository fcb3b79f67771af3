package dev.mnemos.promotion;

import dev.mnemos.session.Scope;

import java.util.Optional;

/**
 * Decides which candidates reach the profile. Task-scoped information (declared TASK, a temporary
 * marker, a budget, a deadline, a one-off circumstance) is never promoted. Otherwise confidence
 * comes from the evidence: a standing marker, consistent observation in
 * {@link PromotionConfig#sessionsToPromote()} ended sessions, the user's confirmation; contradictions
 * lower it. Pure.
 */
public final class PromotionPolicy {

    private final Markers markers;
    private final double promoteAt;
    private final double pendingAt;
    private final int sessions;

    public PromotionPolicy(Markers markers, double promoteAt, double pendingAt, int sessions) {
        this.markers = markers;
        this.promoteAt = promoteAt;
        this.pendingAt = pendingAt;
        this.sessions = sessions;
    }

    public static PromotionPolicy of(PromotionConfig config) {
        return new PromotionPolicy(Markers.DEFAULT, config.promoteThreshold(), config.pendingThreshold(),
                config.sessionsToPromote());
    }

    /** TASK when the words carry a temporary marker, STABLE with a standing marker, else UNKNOWN. */
    public Scope scopeOf(String words) {
        if (markers.temporary(words).isPresent()) {
            return Scope.TASK;
        }
        return markers.standing(words).isPresent() ? Scope.STABLE : Scope.UNKNOWN;
    }

    public Decision decide(Candidate c, Evidence e) {
        Optional<String> temporary = markers.temporary(c.words());
        if (c.scope() == Scope.TASK || temporary.isPresent()) {
            String why = temporary.map(m -> "task-scoped ('" + m + "'): holds for this task only")
                    .orElse("declared task-scoped: holds for this task only");
            return new Decision(Verdict.REJECT, Scope.TASK, 0, why);
        }
        if (e.confirmed()) {
            return new Decision(Verdict.PROMOTE, Scope.STABLE, 1.0, "confirmed by the user");
        }
        Optional<String> standing = markers.standing(c.words());
        int seen = e.earlierSessions() + 1;
        double confidence = standing.isPresent() ? 0.95
                : c.scope() == Scope.STABLE && c.explicit() ? 0.85
                        : c.explicit() ? 0.6 : 0.4;
        if (seen >= sessions) {
            confidence = Math.max(confidence, 0.9);
        } else {
            confidence += 0.1 * (seen - 1);
        }
        confidence = clamp(confidence - 0.3 * e.contradictions());
        Scope scope = standing.isPresent() || c.scope() == Scope.STABLE ? Scope.STABLE : Scope.UNKNOWN;
        String because = standing.map(m -> "standing preference ('" + m + "')")
                .orElse(c.scope() == Scope.STABLE && c.explicit() ? "stated as standing"
                        : "seen in " + seen + " of " + sessions + " sessions")
                + (e.contradictions() > 0 ? "; contradicted " + e.contradictions() + " time(s) in this session" : "");
        if (confidence >= promoteAt) {
            return new Decision(Verdict.PROMOTE, scope, confidence, because);
        }
        if (confidence >= pendingAt) {
            return new Decision(Verdict.PENDING, scope, confidence, because + "; awaiting confirmation");
        }
        return new Decision(Verdict.REJECT, scope, confidence, because + "; confidence too low");
    }

    private static double clamp(double value) {
        return Math.round(Math.max(0, Math.min(1, value)) * 100) / 100.0;
    }
}
