package dev.mnemos.injection.step;

import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.MemoryContext;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.TurnOverride;
import dev.mnemos.session.SessionState;

import java.util.List;

/**
 * What a step read and rendered before the model call.
 *
 * @param actor who the step acts for, established before anything was read; its write is checked against it
 */
record LoadedStep(String sessionId, ActingUser.Actor actor, SessionState state, ProfileSnapshot profile,
        List<TurnOverride> overrides,
        MemoryBlock block, String userMessage, long loadNanos,
        long renderNanos) {

    MemoryContext.ActiveStep active() {
        return new MemoryContext.ActiveStep(sessionId, state.userId(), state.version(), block);
    }
}
