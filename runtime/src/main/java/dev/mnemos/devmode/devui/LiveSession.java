package dev.mnemos.devmode.devui;

import dev.mnemos.session.SessionState;

/** One live session as the Dev UI page lists it; {@code updatedAt} is ISO-8601. */
public record LiveSession(String sessionId, String goal, long version, String updatedAt, int plans) {

    static LiveSession of(SessionState state) {
        return new LiveSession(state.sessionId(), state.goal(), state.version(), String.valueOf(state.updatedAt()),
                state.plans().size());
    }
}
