package dev.mnemos.session;

/**
 * A CDI event the session store fires once a fork is stored: what an application keeps beside the session's state
 * for each version (its chat windows) is copied, as it was at {@code fromVersion}, to the fork.
 */
public record SessionForked(String sourceId, long fromVersion, String forkId) {
}
