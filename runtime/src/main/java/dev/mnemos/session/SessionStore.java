package dev.mnemos.session;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The short-term memory of agent tasks. Every write is atomic and bumps the version by exactly one;
 * every write leaves an event in the replay log. Implementations are safe for concurrent writers.
 * Ids are validated by the caller ({@link SessionIds}).
 *
 * @see RedisSessionStore
 */
public interface SessionStore {

    /** Starts a session for {@code userId} at version 1, with {@code initial} applied (may be empty). */
    SessionState create(String userId, SessionPatch initial, String actor);

    /**
     * Starts a session of exactly {@code sessionId} for {@code userId} at version 1 unless that id is
     * taken, checked and written atomically (two concurrent calls create it once). A taken id is
     * never changed, whoever owns it and whatever its status.
     *
     * @return the new state, or empty when a session of that id already exists
     */
    Optional<SessionState> createIfAbsent(String sessionId, String userId, SessionPatch initial, String actor);

    /** The user a live session belongs to. @throws SessionNotFoundException when there is none */
    String owner(String sessionId);

    /** The current state. @throws SessionNotFoundException when there is no live session of that id */
    SessionState get(String sessionId);

    /**
     * The current state with only the latest {@code latestPlans} plan versions (older ones are left
     * out, everything else is whole). Its cost does not grow with the number of plans, which is what
     * a per-step prompt needs. @throws SessionNotFoundException when there is no live session
     */
    SessionState recent(String sessionId, int latestPlans);

    /** A {@link #recent} read and the string a key held, when the store read it along (null: absent). */
    record Along(SessionState state, boolean read, String value) {
    }

    /**
     * {@link #recent}, and the string at {@code key} (a key of the same Redis) read in the same round
     * trip where the store can: a step reads its session and the profile revision's copy together.
     * This default reads the session only ({@link Along#read()} false).
     */
    default Along recentAlong(String sessionId, int latestPlans, String key) {
        return new Along(recent(sessionId, latestPlans), false, null);
    }

    /**
     * {@link #recentAlong} ({@code key} null: {@link #recent}), unless the session is still at the version of
     * {@code known}: then {@code known} itself is answered and no state is sent. {@code known} is a state the
     * caller built itself, of the latest version it wrote, with the same latest plans a read would give; null
     * when it has none. Every change of a session raises its version, so an unchanged version (of a session
     * created at the same time, not one deleted and created again under the same id) is an unchanged session.
     * This default reads the session.
     */
    default Along recentIfChanged(String sessionId, int latestPlans, String key, SessionState known) {
        return key == null ? new Along(recent(sessionId, latestPlans), false, null)
                : recentAlong(sessionId, latestPlans, key);
    }

    /**
     * {@link #recentIfChanged}, running {@code meanwhile} on the calling thread while the store reads, where it
     * can: once the read is sent and before its answer is taken, so the caller's work overlaps the round trip.
     * {@code meanwhile} runs once, must not depend on the read, and what it throws is dropped. This default
     * runs it before reading.
     */
    default Along recentIfChanged(String sessionId, int latestPlans, String key, SessionState known, Runnable meanwhile) {
        SessionScripts.aside(meanwhile);
        return recentIfChanged(sessionId, latestPlans, key, known);
    }

    /**
     * The current state's plan versions from version {@code from} on, at most {@code limit}, oldest
     * first. @throws SessionNotFoundException when there is no live session of that id
     */
    default PlanPage plans(String sessionId, int from, int limit) {
        List<PlanVersion> all = get(sessionId).plans();
        List<PlanVersion> page = all.stream().filter(p -> p.version() >= from).limit(limit).toList();
        int last = page.isEmpty() ? 0 : page.get(page.size() - 1).version();
        return new PlanPage(page, all.size(), last < all.size() && !page.isEmpty() ? last + 1 : null);
    }

    /**
     * Applies one step. With {@code expectedVersion} it is a compare-and-set; without, the patch is
     * applied atomically to whatever is current.
     *
     * @return the new version
     * @throws StaleVersionException when {@code expectedVersion} is not the current version
     * @throws InvalidPatchException when the patch breaks a rule (nothing is written)
     * @throws SessionEndedException when the session has ended
     */
    default long write(String sessionId, SessionPatch patch, OptionalLong expectedVersion, String note, String actor) {
        return write(sessionId, null, patch, expectedVersion, note, actor);
    }

    /**
     * As {@link #write(String, SessionPatch, OptionalLong, String, String)}, checked atomically
     * against the owner: a session of another user answers {@link SessionNotFoundException} and
     * nothing is written. {@code owner} null skips the check.
     */
    long write(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion, String note,
            String actor);

    /**
     * As {@link #write(String, String, SessionPatch, OptionalLong, String, String)}, answering what was
     * stored, so a caller holding the state it wrote on can rebuild the new state without a read.
     * This default reports no time: {@link AppliedPatch#applyTo} then rebuilds nothing.
     */
    default AppliedPatch apply(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion,
            String note, String actor) {
        return new AppliedPatch(write(sessionId, owner, patch, expectedVersion, note, actor), patch, null);
    }

    /** The state as it was at {@code version}. @throws VersionGoneException beyond the retention window */
    SessionState at(String sessionId, long version);

    /**
     * As {@link #at(String, long)} with only the newest {@code latestPlans} plan versions (negative:
     * all); its cost does not grow with the number of plans.
     */
    default SessionState at(String sessionId, long version, int latestPlans) {
        return at(sessionId, version).newestPlans(latestPlans);
    }

    /** Replay-log entries with {@code version >= fromVersion}, oldest first, at most {@code limit}. */
    List<SessionEvent> events(String sessionId, long fromVersion, int limit);

    /** Writes a new version whose content equals {@code toVersion}; history is kept. @return the new state */
    SessionState rollback(String sessionId, long toVersion, OptionalLong expectedVersion, String actor);

    /** Starts a new session of the same user from the state at {@code fromVersion}. @return the fork at version 1 */
    SessionState fork(String sessionId, long fromVersion, String actor);

    /** Marks the session ENDED (a last event); its keys stay until {@link #delete}. @return the final state */
    SessionState end(String sessionId, String actor);

    /** Removes every key of the session. Deleting a missing session does nothing. */
    void delete(String sessionId);

    /**
     * Removes the keys of a session that ended and was archived, and keeps its id from being
     * created again while the session's keys would have lived (a keyed create or fork retried after
     * the end derives the same id). Stores without such a guard only delete.
     */
    default void retire(String sessionId) {
        delete(sessionId);
    }

    /** Ids of the user's live sessions, newest first. */
    List<String> liveSessions(String userId);

    /**
     * One page of the user's live session ids, newest first. @param after the {@code next} of the
     * previous page, null for the first @param limit most ids returned
     *
     * @throws IllegalArgumentException when {@code after} is not a position this store handed out
     */
    default SessionPage liveSessions(String userId, String after, int limit) {
        List<String> all = liveSessions(userId);
        int from = after == null ? 0 : Integer.parseInt(after);
        int to = Math.min(all.size(), from + limit);
        return new SessionPage(all.subList(Math.min(from, to), to), to < all.size() ? Integer.toString(to) : null);
    }

    // Idempotent variants: with a non-null Idempotency the write is applied at most once per key
    // and a repeat answers the first result (IdempotencyKeyReusedException when the request
    // differs). RedisSessionStore records keys atomically with the write; these defaults, for
    // stores that keep no records (test doubles), apply the write as is.

    default SessionState create(String userId, SessionPatch initial, String actor, Idempotency idem) {
        return create(userId, initial, actor);
    }

    default long write(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion, String note,
            String actor, Idempotency idem) {
        return write(sessionId, owner, patch, expectedVersion, note, actor);
    }

    /**
     * The idempotent {@link #apply(String, String, SessionPatch, OptionalLong, String, String)}. A
     * repeat of a recorded key answers the first write's version with no time: the patch it holds is
     * not the one stored (its generated ids differ), so nothing is rebuilt from it.
     */
    default AppliedPatch apply(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion,
            String note, String actor, Idempotency idem) {
        if (idem == null) {
            return apply(sessionId, owner, patch, expectedVersion, note, actor);
        }
        return new AppliedPatch(write(sessionId, owner, patch, expectedVersion, note, actor, idem), patch, null);
    }

    /**
     * The idempotent {@link #apply(String, String, SessionPatch, OptionalLong, String, String, Idempotency)}
     * as a compare-and-set on {@code expectedVersion}, storing {@code trace} as the trace of the
     * version it produces ({@code expectedVersion + 1}) in the same atomic write: when the write is
     * refused (stale, ended, missing, another owner) the trace is not stored either; a repeat of a
     * recorded key stores nothing.
     */
    AppliedPatch apply(String sessionId, String owner, SessionPatch patch, long expectedVersion, String note,
            String actor, Idempotency idem, StepTraceEntry trace);

    default SessionState rollback(String sessionId, long toVersion, OptionalLong expectedVersion, String actor,
            Idempotency idem) {
        return rollback(sessionId, toVersion, expectedVersion, actor);
    }

    default SessionState fork(String sessionId, long fromVersion, String actor, Idempotency idem) {
        return fork(sessionId, fromVersion, actor);
    }

    /**
     * As {@link #fork(String, long, String, Idempotency)}, only for the session's owner: for another
     * user's session it fails as for a missing one ({@link SessionNotFoundException}), writing nothing.
     */
    default SessionState fork(String sessionId, long fromVersion, String actor, Idempotency idem, String owner) {
        if (!owner.equals(owner(sessionId))) {
            throw new SessionNotFoundException(sessionId);
        }
        return fork(sessionId, fromVersion, actor, idem);
    }

    /**
     * {@link #apply(String, String, SessionPatch, OptionalLong, String, String, Idempotency)} for a caller
     * that must not block (an event-loop thread). This default runs the blocking call on a worker thread.
     */
    default io.smallrye.mutiny.Uni<AppliedPatch> applyAsync(String sessionId, String owner, SessionPatch patch,
            OptionalLong expectedVersion, String note, String actor, Idempotency idem) {
        return io.smallrye.mutiny.Uni.createFrom()
                .item(() -> apply(sessionId, owner, patch, expectedVersion, note, actor, idem))
                .runSubscriptionOn(io.smallrye.mutiny.infrastructure.Infrastructure.getDefaultWorkerPool());
    }

    /**
     * The current state with its newest {@code latestPlans} plan versions (negative: all), for a caller
     * that must not block. This default runs the blocking read on a worker thread.
     */
    default io.smallrye.mutiny.Uni<SessionState> recentAsync(String sessionId, int latestPlans) {
        return io.smallrye.mutiny.Uni.createFrom()
                .item(() -> latestPlans < 0 ? get(sessionId) : recent(sessionId, latestPlans))
                .runSubscriptionOn(io.smallrye.mutiny.infrastructure.Infrastructure.getDefaultWorkerPool());
    }
}
