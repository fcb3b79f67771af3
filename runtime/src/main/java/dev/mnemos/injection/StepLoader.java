package dev.mnemos.injection;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.session.InvalidPatchException;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionArchive;
import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The read half of a step: the session (fail fast when the store is down), the profile (go on
 * without it when it is not), this turn's overrides, and the rendered block.
 *
 * <p>
 * The first call with a {@code @MemoryId} that names no session starts that session, the way
 * LangChain4j's chat memory appears on first use: it is created with exactly that id, owned by the
 * authenticated caller ({@link ActingUser#authenticated()}) or, without one, by
 * {@link InjectionConfig#anonymousUser()}. Creation is create-if-absent in one atomic store call, so
 * concurrent first calls create it once and all proceed; an id that exists is never taken over (a
 * session of another user still answers not found). An ended session stays ended: while its keys
 * live, and after it was archived ({@link SessionArchive}); only an id whose session expired or was
 * deleted without an archive starts afresh.
 */
@ApplicationScoped
public class StepLoader {

    private static final Logger LOG = Logger.getLogger(StepLoader.class);
    /**
     * How long a step waits for its block's render ahead when that is running as the step renders (its
     * step came at once): a render ahead takes a fraction of a millisecond, which the step would spend itself.
     */
    private static final Duration AHEAD_WAIT = Duration.ofMillis(2);

    private final SessionStore store;
    private final SessionArchive archive;
    private final ProfileReader profiles;
    private final ActingUser actingUser;
    private final int plansShown;
    private final String anonymousUser;
    /** Each session's last render, and renders ahead of its next step. */
    private final SessionRenders renders;
    /** Session id → owner, as last read: a session's owner never changes while it lives. */
    private final Cache<String, String> owners = Caffeine.newBuilder().maximumSize(10_000).executor(Runnable::run).build();

    public StepLoader(SessionStore store, SessionArchive archive, ProfileReader profiles, InjectionConfig config,
            ActingUser actingUser, TokenCounter tokens) {
        this.store = store;
        this.archive = archive;
        this.plansShown = config.plansShown();
        this.profiles = profiles;
        this.renders = new SessionRenders(MemoryBlockRenderer.from(config, tokens), config.tokenCountCacheChars(),
                config.renderAhead(), plansShown + 1, AHEAD_WAIT);
        this.actingUser = actingUser;
        this.anonymousUser = SessionIds.require("quarkus.mnemos.injection.anonymous-user", config.anonymousUser());
    }

    /**
     * @throws SessionMemoryUnavailableException when the session store (or, for a first call, the archive) cannot be read
     * @throws SessionNotFoundException when the session belongs to another user
     * @throws SessionEndedException when the session has ended
     */
    LoadedStep load(AiMethod method, Object[] args) {
        long start = System.nanoTime();
        String sessionId = SessionIds.require("sessionId", method.sessionId(args));
        Optional<String> restricted = actingUser.restrictedTo();
        // the user the session should belong to: a restricted caller's own sessions, else the owner seen
        // before (owners never change). A source whose cheap check is asynchronous starts it now, to overlap
        // the session read; one whose check reads a key of the session's Redis has that key read in the
        // same round trip as the session; else its check follows the read, for the owner the read names
        boolean ahead = !profiles.checksOnCallingThread();
        Optional<String> expectedOwner = restricted.or(() -> Optional.ofNullable(owners.getIfPresent(sessionId)));
        CompletableFuture<Optional<ProfileSnapshot>> early = ahead ? expectedOwner.map(profiles::current).orElse(null)
                : null;
        String alongKey = ahead ? null : expectedOwner.flatMap(profiles::currentKey).orElse(null);
        SessionStore.Along read = readOrStart(sessionId, restricted, alongKey);
        SessionState state = read.state();
        SessionGuard.checkRead(state, restricted);
        if (state.status() == SessionState.Status.ENDED) {
            throw new SessionEndedException(sessionId);
        }
        boolean asExpected = expectedOwner.equals(Optional.of(state.userId()));
        if (!asExpected) {
            owners.put(sessionId, state.userId());
        }
        if (!ahead) {
            early = asExpected && read.read() ? profiles.currentFrom(state.userId(), read.value())
                    : profiles.current(state.userId());
        } else if (!asExpected) {
            early = null;
        }
        ProfileSnapshot profile = profiles.load(state.userId(), early);
        long loaded = System.nanoTime();
        String message = method.userMessage(args);
        List<TurnOverride> overrides = TurnOverrideDetector.detect(message, profile.facts());
        SessionRenders.Block block = renders.render(sessionId, state, profile.facts(), overrides, message);
        long rendered = System.nanoTime();
        LOG.debugf("step %s of session %s: loaded version %d, profile %s (%d facts, cache %s)", method.step(), sessionId,
                state.version(), profile.status(), profile.facts().size(), profile.cache());
        LOG.debugf("step %s of session %s: rendered %d tokens of %d, plans %s, %d overrides", method.step(), sessionId,
                block.block().tokens(), block.block().budget(), block.block().plansShown(), overrides.size());
        return new LoadedStep(sessionId, state, profile, overrides, block.block(), block.sha256(), block.renderedAhead(),
                message, loaded - start, rendered - loaded);
    }

    /**
     * Keeps the state the step just wrote ({@code written}: rebuilt on the state it read; null when it could not
     * be) for the session's next read, and renders the next step's block from it ahead ({@link SessionRenders}).
     */
    void renderAhead(LoadedStep step, SessionState written) {
        renders.renderAhead(step.sessionId(), written, step.profile().facts(), step.userMessage());
    }

    /**
     * Waits, up to {@code max}, until the blocks rendered ahead of the next steps of the sessions stepped
     * so far are ready: the time what an application does between two steps of a session gives them. For
     * benchmarks and tests, which run steps back to back. @return false when some were still rendering at {@code max}
     */
    public boolean awaitRenderedAhead(Duration max) {
        return renders.awaitAhead(max);
    }

    /** Whether blocks are rendered ahead of a session's next step ({@link InjectionConfig#renderAhead()}). */
    boolean rendersAhead() {
        return renders.rendersAhead();
    }

    @PreDestroy
    void close() {
        renders.close();
    }

    /** The live session, or the one this first call starts; {@code alongKey} (null: none) read with a live one. */
    private SessionStore.Along readOrStart(String sessionId, Optional<String> restricted, String alongKey) {
        try {
            return read(sessionId, alongKey);
        } catch (SessionNotFoundException e) {
            // no live session of that id: this is its first call, unless it ended and was archived
        }
        Optional<String> archivedOwner = guarded(sessionId, () -> archive.owner(sessionId));
        if (archivedOwner.isPresent()) {
            throw restricted.isEmpty() || restricted.get().equals(archivedOwner.get())
                    ? new SessionEndedException(sessionId)
                    : new SessionNotFoundException(sessionId);
        }
        String owner = actingUser.authenticated().orElse(anonymousUser);
        Optional<SessionState> created = guarded(sessionId,
                () -> store.createIfAbsent(sessionId,
                        NewSession.of(owner, SessionPatch.builder().build()).by(StepWriteBack.ACTOR)));
        if (created.isPresent()) {
            LOG.debugf("session %s started by its first call, owned by %s", sessionId, owner);
            return new SessionStore.Along(created.get(), false, null);
        }
        // a concurrent first call created it in between: read it (the owner guard follows)
        return read(sessionId, null);
    }

    /**
     * The session (the state rendered ahead of this step when it is still current: then the store sends
     * none) and {@code alongKey} (null: none) read along.
     */
    private SessionStore.Along read(String sessionId, String alongKey) {
        // a render ahead of this step still waiting for the render-ahead thread is done here, while Redis answers
        return guarded(sessionId, () -> SummaryFolder.loadForFold(store, sessionId, plansShown, alongKey,
                renders.known(sessionId), () -> renders.takeOver(sessionId)));
    }

    private static <T> T guarded(String sessionId, Supplier<T> call) {
        try {
            return call.get();
        } catch (SessionNotFoundException | SessionEndedException | InvalidPatchException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SessionMemoryUnavailableException(sessionId, e);
        }
    }
}
