package dev.mnemos.injection;

import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;

/**
 * The current turn asks for something a profile preference says otherwise; the turn wins for this
 * session only.
 *
 * @param slot the profile slot, for example {@code output.language}
 * @param value what this turn asks for ("French")
 * @param profile the profile fact it overrides (its text)
 */
public record TurnOverride(String slot, String value, String profile) {

    /** Id prefix of the observations that record overrides; one observation per slot. */
    public static final String OBSERVATION_PREFIX = "turn-override.";

    /** The session observation recording this override: explicit, task-scoped, never promoted as is. */
    public Observation observation(String evidence) {
        return new Observation(OBSERVATION_PREFIX + slot, slot + " = " + value + " for this session (profile: " + profile + ")",
                Observation.Kind.INSTRUCTION, Scope.TASK, slot, true,
                evidence == null ? null : DefaultStepWriter.cut(evidence, 500));
    }
}
