package dev.mnemos.injection.step;

import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.ActingUserUnknownException;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.SessionMemoryUnavailableException;
import dev.mnemos.injection.StepProfiles;
import dev.mnemos.injection.TokenCounter;
import dev.mnemos.injection.TurnOverride;
import dev.mnemos.injection.block.MemoryBlockRenderer;
import dev.mnemos.injection.block.StepBlocks;
import dev.mnemos.injection.block.TurnOverrideDetector;
import dev.mnemos.session.InvalidPatchException;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionArchive;
import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionScriptException;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.TooManySessionsException;
import dev.mnemos.session.UserBytesExceededException;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The read half of a step: the session (fail fast when the store is down), the profile (go on
 * without it when it is not), this turn's overrides, and the rendered block.
 *
 * <p>
 * The profile's check ({@link StepProfiles#ahead}) is sent before the session is read, so that its round trip and
 * the session's travel together; the rest is a plain call on the step's thread, in order.
 * <p>
 * The first call with a {@code @MemoryId} that names no session starts that session, the way
 * LangChain4j's chat memory appears on first use: it is created with exactly that id, owned by the
 * user the step acts for ({@link ActingUser.Actor#owner()}); an actor that may own none (the system actor) cannot
 * start one. Creation is create-if-absent in one atomic store call, so
 * concurrent first calls create it once and all proceed; an id that exists is never taken over (a
 * session of another user still answers not found). An ended session stays ended: while its keys
 * live, and after it was archived ({@link SessionArchive}); only an id whose session expired or was
 * deleted without an archive starts afresh.
 */
@ApplicationScoped
class StepLoader {

    private static final Logger LOG = Logger.getLogger(StepLoader.class);

    private final SessionStore store;
    private final SessionArchive archive;
    private final StepProfiles profiles;
    private final ActingUser actingUser;
    private final int plansShown;
    private final StepBlocks blocks;

    public StepLoader(SessionStore store, SessionArchive archive, StepProfiles profiles, InjectionConfig config,
            ActingUser actingUser, TokenCounter tokens) {
        this.store = store;
        this.archive = archive;
        this.plansShown = config.plansShown();
        this.profiles = profiles;
        this.blocks = StepBlocks.of(MemoryBlockRenderer.from(config, tokens), config.tokenCountCacheChars());
        this.actingUser = actingUser;
    }

    /** {@link #load(AiMethod, Object[], ActingUser.Actor)} for the actor of the calling thread. */
    LoadedStep load(AiMethod method, Object[] args) {
        return load(method, args, actor(method));
    }

    /**
     * Who a step of {@code method} called on this thread acts for, before anything is read.
     *
     * @throws ActingUserUnknownException when it cannot be established in an application that authenticates
     */
    ActingUser.Actor actor(AiMethod method) {
        try {
            return actingUser.actor();
        } catch (ActingUserUnknownException e) {
            LOG.debugf("step %s refused: %s", method.step(), e.getMessage());
            throw new ActingUserUnknownException(
                    method.method().getDeclaringClass().getSimpleName() + "#" + method.method().getName());
        }
    }

    /**
     * The session, then its owner's profile, then this turn's overrides, then the block: each a plain call on this
     * thread, in that order.
     *
     * @throws SessionMemoryUnavailableException when the session store (or, for a first call, the archive) cannot be read
     * @throws SessionNotFoundException when the session belongs to another user
     * @throws SessionEndedException when the session has ended
     */
    LoadedStep load(AiMethod method, Object[] args, ActingUser.Actor actor) {
        long start = System.nanoTime();
        String sessionId = SessionIds.require("sessionId", method.sessionId(args));
        // the profile's check for the user the step acts for, the session's owner but for a service acting for
        // someone: sent before the session's read, so the two round trips travel together
        StepProfiles.Ahead ahead = actor.owner().map(profiles::ahead).orElse(null);
        SessionState state = session(sessionId, actor);
        ProfileSnapshot profile = profiles.load(state.userId(), ahead);
        long loaded = System.nanoTime();
        String message = method.userMessage(args);
        List<TurnOverride> overrides = TurnOverrideDetector.detect(message, profile.facts());
        MemoryBlock block = blocks.render(sessionId, state, profile.facts(), overrides, message);
        long rendered = System.nanoTime();
        LOG.debugf("step %s of session %s: loaded version %d, profile %s (%d facts, cache %s)", method.step(), sessionId,
                state.version(), profile.status(), profile.facts().size(), profile.cache());
        LOG.debugf("step %s of session %s: rendered %d tokens of %d, plans %s, %d overrides", method.step(), sessionId,
                block.tokens(), block.budget(), block.plansShown(), overrides.size());
        return new LoadedStep(sessionId, actor, state, profile, overrides, block, message, loaded - start,
                rendered - loaded);
    }

    /** The live session the caller may step, or the one this first call starts. */
    private SessionState session(String sessionId, ActingUser.Actor actor) {
        SessionState state = readOrStart(sessionId, actor);
        SessionGuard.checkRead(state, actor.restrictedTo());
        if (state.status() == SessionState.Status.ENDED) {
            throw new SessionEndedException(sessionId);
        }
        return state;
    }

    /** The live session, or the one this first call starts. */
    private SessionState readOrStart(String sessionId, ActingUser.Actor actor) {
        Optional<String> restricted = actor.restrictedTo();
        try {
            return read(sessionId);
        } catch (SessionNotFoundException e) {
            // no live session of that id: this is its first call, unless it ended and was archived
        }
        Optional<String> archivedOwner;
        try {
            archivedOwner = archive.owner(sessionId);
        } catch (RuntimeException e) {
            throw SessionMemoryUnavailableException.archive(sessionId, e);
        }
        if (archivedOwner.isPresent()) {
            throw restricted.isEmpty() || restricted.get().equals(archivedOwner.get())
                    ? new SessionEndedException(sessionId)
                    : new SessionNotFoundException(sessionId);
        }
        String owner = actor.owner().orElseThrow(() -> new SessionNotFoundException(sessionId));
        Optional<SessionState> created = guarded(sessionId,
                () -> store.createIfAbsent(sessionId,
                        NewSession.of(owner, SessionPatch.builder().build()).by(StepWriteBack.ACTOR)));
        if (created.isPresent()) {
            LOG.debugf("session %s started by its first call, owned by %s", sessionId, owner);
            return created.get();
        }
        // a concurrent first call created it in between: read it (the owner guard follows)
        return read(sessionId);
    }

    /** The session with the plans its block and its fold need. */
    private SessionState read(String sessionId) {
        return guarded(sessionId, () -> SummaryFolder.loadForFold(store, sessionId, plansShown));
    }

    private static <T> T guarded(String sessionId, Supplier<T> call) {
        try {
            return call.get();
        } catch (SessionNotFoundException | SessionEndedException | InvalidPatchException | SessionScriptException
                | TooManySessionsException | UserBytesExceededException e) {
            // a script's error is a fault Redis answered, and a limit reached is the caller's: not an outage
            throw e;
        } catch (RuntimeException e) {
            throw new SessionMemoryUnavailableException(sessionId, e);
        }
    }
}
