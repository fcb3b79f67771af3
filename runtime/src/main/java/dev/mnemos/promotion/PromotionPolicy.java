package dev.mnemos.promotion;

import dev.mnemos.session.Scope;

/**
 * Decides which candidates reach the profile (docs/promotion.md). A candidate is read for its
 * clause's {@link Reading}: whatever reads task-scoped — a temporary marker, a one-off
 * circumstance, a dated event, this task's object, a budget or deadline, a request for the work at
 * hand — or is declared TASK, or is this turn's override of the profile, is never promoted, however
 * often it is repeated. A request to forget ("forget that I live in Boston", in any language of the markers) is never
 * a fact: it waits for the user's confirmation, whatever its scope or evidence. Otherwise confidence comes from the evidence:
 * an explicit standing marker, a
 * habit, a first-person statement of a lasting property, consistent observation in
 * {@link PromotionConfig#sessionsToPromote()} ended sessions, the user's confirmation;
 * contradictions lower it. Pure.
 */
public final class PromotionPolicy {

    private static final Reading NOT_ABOUT_THE_USER = new Reading(Reading.Kind.REQUEST, null);

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

    public static PromotionPolicy of(PromotionConfig config, Markers markers) {
        return new PromotionPolicy(markers, config.promoteThreshold(), config.pendingThreshold(),
                config.sessionsToPromote());
    }

    /** The markers' view of polarity and topic, for contradictions without a slot. */
    public Markers markers() {
        return markers;
    }

    /** How the candidate's words read; a declared TASK or STABLE scope wins over NONE. */
    public Scope scopeOf(Candidate c) {
        if (c.override() || c.scope() == Scope.TASK) {
            return Scope.TASK;
        }
        Scope read = reading(c).scope();
        return read == Scope.UNKNOWN ? c.scope() : read;
    }

    /**
     * The reading of the candidate's words. Words the user said without any cue and without speaking
     * about themselves ("swap the Friday dinner for a picnic", "博物馆换成公园") are a request on the work at
     * hand, decided now rather than left for confirmation; a cue-less statement about the user ("cats make
     * me sneeze"), one inferred by a model, or a fact a model extracted from the user's messages (its words are the
     * model's paraphrase, "Works night shifts", with no observation behind it) keeps no reading.
     */
    private Reading reading(Candidate c) {
        Reading read = markers.read(c.words());
        return read.kind() == Reading.Kind.NONE && c.explicit() && c.observationId() != null
                && c.scope() == Scope.UNKNOWN && !markers.personal(c.words()) ? NOT_ABOUT_THE_USER : read;
    }

    public Decision decide(Candidate c, Evidence e) {
        if (c.override()) {
            return new Decision(Verdict.REJECT, Scope.TASK, 0,
                    "task-scoped: this turn's override of a profile preference holds for this session only");
        }
        Reading reading = reading(c);
        if (reading.kind() == Reading.Kind.FORGET) {
            return new Decision(Verdict.PENDING, Scope.STABLE, c.explicit() ? 0.6 : 0.4, reading.describe()
                    + ": confirming it forgets what it names, as the profile's forget does; rejecting it keeps the profile");
        }
        if (c.scope() == Scope.TASK) {
            return new Decision(Verdict.REJECT, Scope.TASK, 0, "task-scoped (declared): holds for this task only");
        }
        if (reading.scope() == Scope.TASK) {
            return new Decision(Verdict.REJECT, Scope.TASK, 0, "task-scoped: " + reading.describe());
        }
        if (e.confirmed()) {
            return new Decision(Verdict.PROMOTE, Scope.STABLE, 1.0, "confirmed by the user");
        }
        int seen = e.earlierSessions() + 1;
        double confidence = base(reading.kind(), c);
        confidence = seen >= sessions ? Math.max(confidence, 0.9) : confidence + 0.1 * (seen - 1);
        confidence = clamp(confidence - 0.3 * e.contradictions());
        Scope scope = reading.scope() == Scope.STABLE || c.scope() == Scope.STABLE ? Scope.STABLE : Scope.UNKNOWN;
        String because = (reading.kind() != Reading.Kind.NONE ? reading.describe()
                : c.scope() == Scope.STABLE && c.explicit() ? "stated as standing" : "no scope cue")
                + (seen > 1 || reading.kind() == Reading.Kind.NONE ? "; seen in " + seen + " of " + sessions + " sessions" : "")
                + (e.contradictions() > 0 ? "; contradicted " + e.contradictions() + " time(s) in this session" : "");
        if (confidence >= promoteAt) {
            return new Decision(Verdict.PROMOTE, scope, confidence, because);
        }
        if (confidence >= pendingAt) {
            return new Decision(Verdict.PENDING, scope, confidence, because + "; awaiting confirmation");
        }
        return new Decision(Verdict.REJECT, scope, confidence, because + "; confidence too low");
    }

    /** Confidence before repetition and contradictions: explicit standing words first, inferred last. */
    private static double base(Reading.Kind kind, Candidate c) {
        return switch (kind) {
            case STANDING -> 0.95;
            case HABITUAL -> c.explicit() ? 0.9 : 0.6;
            case PROPERTY -> c.explicit() ? 0.85 : 0.6;
            default -> c.scope() == Scope.STABLE && c.explicit() ? 0.85 : c.explicit() ? 0.6 : 0.4;
        };
    }

    private static double clamp(double value) {
        return Math.round(Math.max(0, Math.min(1, value)) * 100) / 100.0;
    }
}
