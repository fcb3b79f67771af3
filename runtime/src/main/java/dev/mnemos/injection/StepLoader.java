package dev.mnemos.injection;

import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.List;

/**
 * The read half of a step: the session (fail fast when the store is down), the profile (go on
 * without it when it is not), this turn's overrides, and the rendered block.
 */
@ApplicationScoped
public class StepLoader {

    private static final Logger LOG = Logger.getLogger(StepLoader.class);

    private final SessionStore store;
    private final ProfileReader profiles;
    private final MemoryBlockRenderer renderer;
    private final ActingUser actingUser;
    private final int plansShown;

    public StepLoader(SessionStore store, ProfileReader profiles, InjectionConfig config, ActingUser actingUser) {
        this.store = store;
        this.plansShown = config.plansShown();
        this.profiles = profiles;
        this.renderer = MemoryBlockRenderer.from(config);
        this.actingUser = actingUser;
    }

    /**
     * @throws SessionMemoryUnavailableException when the session store cannot be read
     * @throws SessionNotFoundException          when the session does not exist or belongs to another user
     * @throws SessionEndedException             when the session has ended
     */
    LoadedStep load(AiMethod method, Object[] args) {
        long start = System.nanoTime();
        String sessionId = SessionIds.require("sessionId", method.sessionId(args));
        SessionState state = read(sessionId);
        SessionGuard.checkRead(state, actingUser.restrictedTo());
        if (state.status() == SessionState.Status.ENDED) {
            throw new SessionEndedException(sessionId);
        }
        ProfileSnapshot profile = profiles.load(state.userId());
        long loaded = System.nanoTime();
        String message = method.userMessage(args);
        List<TurnOverride> overrides = TurnOverrideDetector.detect(message, profile.facts());
        MemoryBlock block = renderer.render(state, profile.facts(), overrides, message);
        long rendered = System.nanoTime();
        LOG.debugf("step %s of session %s: loaded version %d, profile %s (%d facts, cache %s)", method.step(), sessionId,
                state.version(), profile.status(), profile.facts().size(), profile.cache());
        LOG.debugf("step %s of session %s: rendered %d tokens of %d, plans %s, %d overrides", method.step(), sessionId,
                block.tokens(), block.budget(), block.plansShown(), overrides.size());
        return new LoadedStep(sessionId, state, profile, overrides, block, message, loaded - start, rendered - loaded);
    }

    private SessionState read(String sessionId) {
        try {
            return SummaryFolder.loadForFold(store, sessionId, plansShown);
        } catch (SessionNotFoundException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SessionMemoryUnavailableException(sessionId, e);
        }
    }
}
