package dev.mnemos.session;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;

/**
 * Reads a session's history wherever it lives: the live store while the session runs, the
 * {@link SessionArchive} after it ended and its keys were cleared.
 */
@ApplicationScoped
public class SessionHistory {

    private final SessionStore store;
    private final SessionArchive archive;

    public SessionHistory(SessionStore store, SessionArchive archive) {
        this.store = store;
        this.archive = archive;
    }

    /** @throws SessionNotFoundException when neither live nor archived */
    public String owner(String sessionId) {
        try {
            return store.owner(sessionId);
        } catch (SessionNotFoundException e) {
            return archive.owner(sessionId).orElseThrow(() -> new SessionNotFoundException(sessionId));
        }
    }

    /**
     * Why a write found no live session: {@link SessionEndedException} (409) when the session ended and is
     * archived as {@code owner}'s, as a write to an ended session is documented to answer; else {@code missing}
     * itself, so another user's session still fails exactly as a missing one.
     */
    public RuntimeException missingOrEnded(SessionNotFoundException missing, String owner) {
        String id = missing.sessionId();
        return archive.owner(id).filter(owner::equals).isPresent() ? new SessionEndedException(id) : missing;
    }

    /**
     * Refuses a keyed create ({@code kind} "create", {@code scope} the user) or fork ("fork", the
     * source session) whose session has ended and is archived: the key derives that session's id,
     * which must not start again beside its archive. (While the cleared session's ended marker lives,
     * the create script refuses it too, atomically; this check covers the time after.)
     *
     * @throws IdempotencyKeyEndedException when it has ended
     */
    public void refuseEnded(Idempotency idem, String kind, String scope) {
        if (idem == null) {
            return;
        }
        String id = idem.derivedId(kind, scope);
        if (archive.owner(id).isPresent()) {
            throw new IdempotencyKeyEndedException(idem.key(), id);
        }
    }

    /** Events from the live log; only when it has none in range is the archive consulted. */
    public List<SessionEvent> events(String sessionId, long fromVersion, int limit) {
        List<SessionEvent> live = store.events(sessionId, fromVersion, limit);
        if (!live.isEmpty()) {
            return live;
        }
        return archive.find(sessionId).map(a -> a.events().stream()
                .filter(ev -> ev.version() >= fromVersion).limit(limit).toList()).orElse(List.of());
    }

    public SessionState at(String sessionId, long version) {
        return at(sessionId, version, -1);
    }

    /** The state at {@code version} with its newest {@code latestPlans} plan versions (negative: all). */
    public SessionState at(String sessionId, long version, int latestPlans) {
        try {
            return store.at(sessionId, version, latestPlans);
        } catch (SessionNotFoundException e) {
            SessionArchive.Archived archived = archived(sessionId);
            long last = archived.finalState().version();
            if (version > last) {
                throw new VersionNotFoundException(sessionId, version, last);
            }
            return replayArchived(sessionId, archived, version).newestPlans(latestPlans);
        }
    }

    /**
     * Rebuilds an archived version from the newest full-state event (creation, fork, rollback) at or
     * below it. The archive holds the live log's retention window, so older versions are gone.
     */
    private static SessionState replayArchived(String sessionId, SessionArchive.Archived archived, long version) {
        List<SessionEvent> upTo = archived.events().stream().filter(ev -> ev.version() <= version).toList();
        int start = upTo.size() - 1;
        while (start >= 0 && upTo.get(start).state() == null) {
            start--;
        }
        if (start < 0) {
            long oldest = archived.events().stream().filter(ev -> ev.state() != null).mapToLong(SessionEvent::version)
                    .min().orElse(archived.finalState().version());
            throw new VersionGoneException(sessionId, version, oldest);
        }
        return SessionReplay.replay(null, upTo.subList(start, upTo.size()));
    }

    /** The final state of an ended, archived session, read once from the archive. */
    public Optional<SessionState> finalState(String sessionId) {
        return archive.find(sessionId).map(SessionArchive.Archived::finalState);
    }

    private SessionArchive.Archived archived(String sessionId) {
        return archive.find(sessionId).orElseThrow(() -> new SessionNotFoundException(sessionId));
    }
}
