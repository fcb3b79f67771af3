package dev.mnemos.session;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;

/**
 * One entry of a session's replay log: the write that produced {@code version}. {@code patch} is
 * set for PATCH; {@code state} carries the full resulting state for CREATE, FORK and ROLLBACK so
 * the log replays on its own; {@code toVersion} names the rollback target or the fork's source version.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionEvent(long version, Type type, Instant at, String actor, String note, SessionPatch patch,
        Long toVersion, SessionState state) {

    public enum Type {
        CREATE,
        PATCH,
        ROLLBACK,
        FORK,
        END
    }
}
