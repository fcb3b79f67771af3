package dev.mnemos.app;

import dev.mnemos.promotion.PromotionReport;
import dev.mnemos.session.Fork;
import dev.mnemos.session.Idempotency;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.Observation;
import dev.mnemos.session.PlanPage;
import dev.mnemos.session.Rollback;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionHistory;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPage;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Session memory for a transport (the REST API, the MCP tools): every use case once, with its ownership check,
 * idempotency and paging, so each transport only parses its input and shapes its answer.
 * <ul>
 * <li>Another user's session fails exactly as a missing one ({@link SessionNotFoundException}), so existence is never
 * revealed.</li>
 * <li>A write to a session that has ended and been archived fails as ended ({@code SessionEndedException}), else as
 * missing.</li>
 * <li>A write with an idempotency key applies at most once; the key's record digests {@code request}.</li>
 * </ul>
 */
@ApplicationScoped
public class SessionService {

    private final SessionStore store;
    private final SessionHistory history;
    private final IdempotencyKeys keys;
    private final SessionEnd ending;

    SessionService(SessionStore store, SessionHistory history, IdempotencyKeys keys, SessionEnd ending) {
        this.store = store;
        this.history = history;
        this.keys = keys;
        this.ending = ending;
    }

    /** Starts a session of {@code who.user()}; a keyed create whose session has since ended is refused. */
    public SessionState create(Actor who, SessionPatch initial, String key, Object request) {
        Idempotency idem = keys.of(key, "create", who.user(), request);
        history.refuseEnded(idem, "create", who.user());
        return store.create(NewSession.of(who.user(), initial).by(who.actor()).keyed(idem));
    }

    /**
     * A page of the user's live sessions, newest first.
     *
     * @param position where an earlier page said the next starts, or null for the first page
     * @throws IllegalArgumentException when the position is not one a page handed out
     */
    public SessionPage live(String user, String position, int limit) {
        return store.liveSessions(user, position, limit);
    }

    /** The current state with its newest {@code plans} plan versions (negative: all), read on the event loop. */
    public Uni<SessionState> readAsync(String user, String id, int plans) {
        SessionIds.require("sessionId", id);
        // one round trip: the state names its owner, checked before any of it is answered
        return store.recentAsync(id, plans).map(state -> mine(user, state));
    }

    /** The current state with its newest {@code plans} plan versions. */
    public SessionState read(String user, String id, int plans) {
        SessionIds.require("sessionId", id);
        return mine(user, store.recent(id, plans));
    }

    /** A page of the current state's plan versions from {@code from}, oldest first. */
    public PlanPage plans(String user, String id, int from, int limit) {
        return store.plans(owned(user, id), from, limit);
    }

    /** Writes a step as one new version (a compare-and-set with {@code expected}), on the event loop. */
    public Uni<Long> stepAsync(Actor who, String id, SessionPatch patch, OptionalLong expected, String note, String key,
            Object request) {
        SessionIds.require("sessionId", id);
        Idempotency idem = keys.of(key, "step", id, request);
        return store
                .applyAsync(StepWrite.of(id, patch).ownedBy(who.user()).expecting(expected).noting(note).by(who.actor())
                        .keyed(idem))
                .map(applied -> applied.version())
                .onFailure(SessionNotFoundException.class)
                .recoverWithUni(missing -> endedOrMissing((SessionNotFoundException) missing, who.user()));
    }

    /** Writes a step as one new version (a compare-and-set with {@code expected}). */
    public long step(Actor who, String id, SessionPatch patch, OptionalLong expected, String note, String key,
            Object request) {
        SessionIds.require("sessionId", id);
        Idempotency idem = keys.of(key, "step", id, request);
        return live(who.user(), () -> store.apply(StepWrite.of(id, patch).ownedBy(who.user()).expecting(expected).noting(note)
                .by(who.actor()).keyed(idem)).version());
    }

    /** Records one observation about the user, decided when the session ends. */
    public long observe(Actor who, String id, Observation observation, String key, Object request) {
        SessionPatch patch = SessionPatch.builder().addObservation(observation).build();
        Idempotency idem = keys.of(key, "observation", id, request);
        String owned = owned(who.user(), id);
        return live(who.user(),
                () -> store.apply(StepWrite.of(owned, patch).noting("observation").by(who.actor()).keyed(idem)).version());
    }

    /** A page of the session's events from version {@code from}, live or archived. */
    public Page<SessionEvent> events(String user, String id, long from, int limit) {
        List<SessionEvent> read = history.events(owned(user, id), from, limit + 1);
        return Page.of(read, limit, read.size() > limit ? read.get(limit).version() : null);
    }

    /** A page of the session's version history from version {@code from}. */
    public Page<SessionVersionEntry> versions(String user, String id, long from, int limit) {
        Page<SessionEvent> events = events(user, id, from, limit);
        return new Page<>(events.items().stream().map(SessionVersionEntry::of).toList(), events.next());
    }

    /** The state as it was at {@code version}, with its newest {@code plans} plan versions (negative: all). */
    public SessionState version(String user, String id, long version, int plans) {
        SessionIds.require("sessionId", id);
        SessionState state;
        try {
            state = history.at(id, version, plans);
        } catch (RuntimeException e) {
            owned(user, id); // another user's session fails as a missing one, whatever went wrong reading it
            throw e;
        }
        return mine(user, state);
    }

    /** Writes a new version equal to {@code toVersion} (a compare-and-set with {@code expected}). */
    public SessionState rollback(Actor who, String id, long toVersion, OptionalLong expected, String key,
            Object request) {
        String owned = owned(who.user(), id);
        Idempotency idem = keys.of(key, "rollback", id, request);
        return live(who.user(),
                () -> store.rollback(Rollback.of(owned, toVersion).expecting(expected).by(who.actor()).keyed(idem)));
    }

    /** Starts a new session from the state at {@code fromVersion}; a keyed fork whose session has ended is refused. */
    public SessionState fork(Actor who, String id, long fromVersion, String key, Object request) {
        SessionIds.require("sessionId", id);
        Idempotency idem = keys.of(key, "fork", id, request);
        if (idem == null) {
            // the owner is checked on the source version the fork reads anyway
            return store.fork(Fork.of(id, fromVersion).by(who.actor()).ownedBy(who.user()));
        }
        // the owner first, once: an outsider learns nothing about the session's forks, ended or recorded
        history.refuseEnded(idem, "fork", owned(who.user(), id));
        return store.fork(Fork.of(id, fromVersion).by(who.actor()).keyed(idem));
    }

    /** Removes a live session and its history without promoting anything. */
    public void delete(String user, String id) {
        store.delete(owned(user, id));
    }

    /**
     * Ends the session: promotion, archive, clear, and ending an ended session answers its report again; with session
     * memory only, its keys are removed and the report says no profile is configured ({@link SessionEnd}).
     */
    public PromotionReport end(Actor who, String id) {
        return ending.end(owned(who.user(), id), who.actor());
    }

    /**
     * The session id, once it is known to be a session of {@code user} (live or archived).
     *
     * @throws SessionNotFoundException otherwise, exactly as for a missing session
     */
    public String owned(String user, String id) {
        SessionIds.require("sessionId", id);
        if (!user.equals(history.owner(id))) {
            throw new SessionNotFoundException(id);
        }
        return id;
    }

    private static SessionState mine(String user, SessionState state) {
        if (!user.equals(state.userId())) {
            throw new SessionNotFoundException(state.sessionId());
        }
        return state;
    }

    private <T> T live(String user, Supplier<T> write) {
        try {
            return write.get();
        } catch (SessionNotFoundException missing) {
            throw history.missingOrEnded(missing, user);
        }
    }

    /** {@link #live}'s twin for the event loop: the archive is read on a worker thread. */
    private <T> Uni<T> endedOrMissing(SessionNotFoundException missing, String user) {
        return Uni.createFrom().item(() -> history.missingOrEnded(missing, user))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .onItem().transformToUni(refusal -> Uni.createFrom().failure(refusal));
    }
}
