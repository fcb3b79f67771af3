package dev.mnemos.injection;

import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;

import java.util.Optional;
import java.util.regex.Pattern;

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

    private static final Pattern VALUE = Pattern.compile("^[\\w.]+ = (.+?) for this session");

    /** The value a recorded override observation asks for ("French"), read back from its text. */
    public static Optional<String> value(Observation o) {
        var m = VALUE.matcher(o.text());
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** The session observation recording this override: explicit, task-scoped, never promoted as is. */
    public Observation observation(String evidence) {
        return new Observation(OBSERVATION_PREFIX + slot, slot + " = " + value + " for this session (profile: " + profile + ")",
                Observation.Kind.INSTRUCTION, Scope.TASK, slot, true,
                evidence == null ? null : DefaultStepWriter.cut(evidence, 500));
    }
}
