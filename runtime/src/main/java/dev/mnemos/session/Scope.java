package dev.mnemos.session;

/** How long a piece of information holds: for this task only, as a standing fact, or not known yet. */
public enum Scope {
    TASK,
    STABLE,
    UNKNOWN
}
