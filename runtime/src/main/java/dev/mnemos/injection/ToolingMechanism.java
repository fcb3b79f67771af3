package dev.mnemos.injection;

/**
 * Marks an authentication mechanism that Mnemos adds for its own tools (the dev-mode user switch). It is
 * not the application's: an application with only such mechanisms counts as one without authentication.
 */
public interface ToolingMechanism {
}
