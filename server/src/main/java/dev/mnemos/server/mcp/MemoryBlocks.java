package dev.mnemos.server.mcp;

import dev.mnemos.app.SessionService;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.MemoryBlockRenderer;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.StepProfiles;
import dev.mnemos.injection.TokenCounter;
import dev.mnemos.injection.TurnOverride;
import dev.mnemos.injection.TurnOverrideDetector;
import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * The read the {@code @SessionMemory} interceptor makes before a step, for MCP: the session with only
 * its newest plans ({@link SessionService#read}), the user's profile through {@link StepProfiles}
 * (a slow or failing profile leaves it out, as for the interceptor), this message's overrides, and the
 * bounded, data-framed block {@link MemoryBlockRenderer} renders from them. Reads only: nothing is folded
 * or written back.
 */
@ApplicationScoped
class MemoryBlocks {

    private final SessionService sessions;
    private final StepProfiles profiles;
    private final MemoryBlockRenderer renderer;
    private final int plansShown;

    MemoryBlocks(SessionService sessions, StepProfiles profiles, InjectionConfig config,
            TokenCounter tokens) {
        this.sessions = sessions;
        this.profiles = profiles;
        this.renderer = MemoryBlockRenderer.from(config, tokens);
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
        ProfileSnapshot profile = profiles.load(user);
        List<TurnOverride> overrides = TurnOverrideDetector.detect(message, profile.facts());
        return renderer.render(state, profile.facts(), overrides, message);
    }
}
