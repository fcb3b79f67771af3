package dev.mnemos.profile;

/** ACTIVE facts are served; SUPERSEDED ones are history, with {@code valid_to} set. */
public enum FactStatus {
    ACTIVE,
    SUPERSEDED
}
