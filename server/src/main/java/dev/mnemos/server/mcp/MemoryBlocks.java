package dev.mnemos.server.mcp;

import dev.mnemos.app.SessionService;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.MemoryBlockPreview;
import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The read the {@code @SessionMemory} interceptor makes before a step, for MCP: the session with only
 * its newest plans ({@link SessionService#read}), then the block a step would get now
 * ({@link MemoryBlockPreview}: the owner's profile, this message's overrides, the bounded, data-framed block).
 * Reads only: nothing is folded or written back.
 */
@ApplicationScoped
class MemoryBlocks {

    private final SessionService sessions;
    private final MemoryBlockPreview preview;
    private final int plansShown;

    MemoryBlocks(SessionService sessions, MemoryBlockPreview preview, InjectionConfig config) {
        this.sessions = sessions;
        this.preview = preview;
        this.plansShown = Math.max(1, Math.min(2, config.plansShown()));
    }

    /** How many of the newest plans a bounded read carries. */
    int plansShown() {
        return plansShown;
    }

    /**
     * The live session of {@code user} with only its newest plans.
     *
     * @throws SessionNotFoundException when there is no live session of that id for this user
     */
    SessionState state(String user, String sessionId) {
        return sessions.read(user, sessionId, plansShown);
    }

    /**
     * @param message the user's message of this turn, for profile relevance and overrides; may be null
     * @throws SessionEndedException when the session has ended (there is no step left to inject into)
     */
    MemoryBlock render(String user, String sessionId, String message) {
        SessionState state = state(user, sessionId);
        if (state.status() == SessionState.Status.ENDED) {
            throw new SessionEndedException(sessionId);
        }
        return preview.render(state, message);
    }
}
