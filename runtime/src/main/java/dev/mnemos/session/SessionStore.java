package dev.mnemos.session;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

import java.util.List;
import java.util.Optional;

/**
 * The short-term memory of agent tasks. Every write is atomic and bumps the version by exactly one;
 * every write leaves an event in the replay log. Implementations are safe for concurrent writers.
 * Ids are validated by the caller ({@link SessionIds}).
 *
 * @see RedisSessionStore
 */
public interface SessionStore {

    /**
     * Starts a session at version 1. With a key, a repeat answers the first session
     * ({@link IdempotencyKeyReusedException} when the request differs).
     */
    SessionState create(NewSession request);

    /**
     * Starts a session of exactly {@code sessionId} at version 1 unless that id is taken, checked and written
     * atomically (two concurrent calls create it once). A taken id is never changed, whoever owns it and
     * whatever its status. The request's key is not used.
     *
     * @return the new state, or empty when a session of that id already exists
     */
    Optional<SessionState> createIfAbsent(String sessionId, NewSession request);

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
     * Applies one step ({@link StepWrite}), answering what was stored, so a caller holding the state it wrote on
     * can rebuild the new state without a read. A repeat of a recorded key answers the first write's version
     * with no time: the patch it holds is not the one stored (its generated ids differ), so nothing is rebuilt.
     *
     * @throws StaleVersionException when the expected version is not the current version
     * @throws InvalidPatchException when the patch breaks a rule (nothing is written)
     * @throws SessionEndedException when the session has ended
     * @throws SessionNotFoundException when there is no live session of that id (or of that owner)
     */
    AppliedPatch apply(StepWrite write);

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

    /** Writes a new version whose content equals the rollback's target; history is kept. @return the new state */
    SessionState rollback(Rollback request);

    /** Starts a new session of the same user from the state at the fork's version. @return the fork at version 1 */
    SessionState fork(Fork request);

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

    /**
     * {@link #apply} for a caller that must not block (an event-loop thread). This default runs the blocking
     * call on a worker thread.
     */
    default Uni<AppliedPatch> applyAsync(StepWrite write) {
        return Uni.createFrom().item(() -> apply(write))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    /**
     * The current state with its newest {@code latestPlans} plan versions (negative: all), for a caller
     * that must not block. This default runs the blocking read on a worker thread.
     */
    default Uni<SessionState> recentAsync(String sessionId, int latestPlans) {
        return Uni.createFrom()
                .item(() -> latestPlans < 0 ? get(sessionId) : recent(sessionId, latestPlans))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
