package dev.mnemos.session;

/**
 * A CDI event the session store fires once a rollback is stored: what an application keeps beside the session's
 * state for each version (its chat windows) follows it to {@code toVersion}.
 *
 * @param newVersion the version the rollback wrote (its content is {@code toVersion}'s)
 */
public record SessionRolledBack(String sessionId, long toVersion, long newVersion) {
}
