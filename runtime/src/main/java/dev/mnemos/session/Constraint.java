package dev.mnemos.session;

/**
 * A constraint on the task. {@code id} is assigned by the store when absent; {@code source} says
 * where it came from (user, agent, import …) and may be null.
 */
public record Constraint(String id, String text, Scope scope, String source) {

    public Constraint {
        scope = scope == null ? Scope.UNKNOWN : scope;
    }
}
