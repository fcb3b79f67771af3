package dev.mnemos.injection.step;

import dev.mnemos.injection.MemoryContext;
import dev.mnemos.injection.SessionMixUpException;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionState;

import java.util.Optional;

/** The session-id mix-up guard: a step reads and writes only the session, and the user, it started with. */
final class SessionGuard {

    private SessionGuard() {
    }

    /** Before the model call: another user's session is answered as not found, revealing nothing. */
    static void checkRead(SessionState state, Optional<String> actingUser) {
        if (actingUser.isPresent() && !actingUser.get().equals(state.userId())) {
            throw new SessionNotFoundException(state.sessionId());
        }
    }

    /**
     * Before the write-back: the session about to be written must be the one loaded, owned by the
     * same user, with the same call still current on this thread.
     */
    static void checkWrite(SessionState loaded, String writeSessionId, SessionState current,
            Optional<MemoryContext.ActiveStep> active, Optional<String> actingUser) {
        if (!loaded.sessionId().equals(writeSessionId) || !loaded.sessionId().equals(current.sessionId())) {
            throw new SessionMixUpException(
                    "loaded session " + loaded.sessionId() + " but the write targets " + writeSessionId);
        }
        if (!loaded.userId().equals(current.userId())) {
            throw new SessionMixUpException("session " + writeSessionId + " changed owner during the step");
        }
        if (active.isEmpty() || !active.get().sessionId().equals(writeSessionId)) {
            throw new SessionMixUpException("the step running on this thread is not for session " + writeSessionId);
        }
        if (actingUser.isPresent() && !actingUser.get().equals(current.userId())) {
            throw new SessionMixUpException("user " + actingUser.get() + " may not write session " + writeSessionId);
        }
    }
}
