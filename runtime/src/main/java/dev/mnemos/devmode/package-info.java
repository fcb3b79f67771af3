/**
 * Dev-mode only: lets the session inspector, opened from the Dev UI, act as a user the developer picks, whatever
 * authentication the application has. The deployment module drops every class of this package from the build
 * unless the application runs in dev mode with Mnemos' REST API on, so a production or test build has none of it.
 */
package dev.mnemos.devmode;
