package dev.mnemos.session;

/**
 * Something learned about the user during the task, a candidate for promotion to the profile.
 *
 * @param slot optional profile slot (for example {@code output.language}) for deterministic reconcile
 * @param explicit the user stated it in so many words (not inferred)
 * @param evidence the user's words or the reason it was inferred; may be null
 */
public record Observation(String id, String text, Kind kind, Scope scope, String slot, boolean explicit,
        String evidence) {

    public enum Kind {
        PREFERENCE,
        FACT,
        INSTRUCTION
    }

    public Observation {
        kind = kind == null ? Kind.PREFERENCE : kind;
        scope = scope == null ? Scope.UNKNOWN : scope;
    }
}
