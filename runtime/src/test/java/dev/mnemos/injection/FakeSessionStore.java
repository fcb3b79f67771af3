package dev.mnemos.injection;

import dev.mnemos.session.AppliedPatch;
import dev.mnemos.session.Fork;
import dev.mnemos.session.Idempotency;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.Rollback;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StaleVersionException;
import dev.mnemos.session.StepTraceEntry;
import dev.mnemos.session.StepWrite;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/** An in-process session store for pure tests of the step cycle: get, write (with CAS) and hooks. */
public final class FakeSessionStore implements SessionStore {

    public final Map<String, SessionState> states = new ConcurrentHashMap<>();
    public final List<SessionPatch> written = new ArrayList<>();
    /** Runs before every write; may change the stored state to simulate a concurrent writer. */
    public volatile Runnable beforeWrite = () -> {
    };
    public volatile RuntimeException failure;
    /** Runs before every read. */
    public volatile Runnable beforeRead = () -> {
    };
    /** Runs after a write was applied and its idempotency key recorded; may throw to lose the answer. */
    public volatile Runnable afterWrite = () -> {
    };
    /** Idempotency key → the version its write produced, as RedisSessionStore records them. */
    public final Map<String, Long> keys = new ConcurrentHashMap<>();

    public void put(SessionState state) {
        states.put(state.sessionId(), state);
    }

    public void change(String id, UnaryOperator<SessionState> change) {
        states.put(id, change.apply(states.get(id)));
    }

    @Override
    public SessionState recent(String sessionId, int latestPlans) {
        SessionState s = get(sessionId);
        List<PlanVersion> plans = s.plans().subList(Math.max(0, s.plans().size() - latestPlans),
                s.plans().size());
        return new SessionState(s.sessionId(), s.userId(), s.version(), s.createdAt(), s.updatedAt(), s.status(), s.goal(),
                s.context(), s.constraints(), s.openQuestions(), s.collected(), s.stepPointer(), plans, s.observations(),
                s.summary(), s.forkedFrom());
    }

    @Override
    public SessionState get(String sessionId) {
        beforeRead.run();
        if (failure != null) {
            throw failure;
        }
        SessionState state = states.get(sessionId);
        if (state == null) {
            throw new SessionNotFoundException(sessionId);
        }
        return state;
    }

    private AppliedPatch write(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion) {
        beforeWrite.run();
        SessionState current = get(sessionId);
        if (owner != null && !owner.equals(current.userId())) {
            throw new SessionNotFoundException(sessionId);
        }
        if (expectedVersion.isPresent() && expectedVersion.getAsLong() != current.version()) {
            throw new StaleVersionException(sessionId, expectedVersion.getAsLong(), current.version());
        }
        written.add(patch);
        SessionPatch withIds = patch.withIds(() -> "id" + written.size());
        Instant at = Instant.now();
        SessionState next = withIds.applyTo(current, current.version() + 1, at);
        states.put(sessionId, next);
        return new AppliedPatch(next.version(), withIds, at);
    }

    /** The trace entries of the writes that were applied, in order. */
    public final List<StepTraceEntry> traces = new CopyOnWriteArrayList<>();

    @Override
    public synchronized AppliedPatch apply(StepWrite write) {
        Idempotency idem = write.idempotency();
        if (idem != null && keys.containsKey(idem.key())) {
            return new AppliedPatch(keys.get(idem.key()), write.patch(), null);
        }
        // applied with its trace, as one write: afterWrite (a lost answer) comes after both
        AppliedPatch applied = write(write.sessionId(), write.owner(), write.patch(), write.expectedVersion());
        if (write.trace() != null) {
            traces.add(write.trace());
        }
        if (idem != null) {
            keys.put(idem.key(), applied.version());
        }
        afterWrite.run();
        return applied;
    }

    @Override
    public SessionState create(NewSession request) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<SessionState> createIfAbsent(String sessionId, NewSession request) {
        String userId = request.userId();
        Instant now = Instant.now();
        SessionState fresh = new SessionState(sessionId, userId, 1, now, now, SessionState.Status.ACTIVE, null, null,
                List.of(), List.of(), Map.of(), null, List.of(), List.of(), null, null);
        return states.putIfAbsent(sessionId, fresh) == null ? Optional.of(fresh) : Optional.empty();
    }

    @Override
    public String owner(String sessionId) {
        return get(sessionId).userId();
    }

    @Override
    public SessionState at(String sessionId, long version) {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<SessionEvent> events(String sessionId, long fromVersion, int limit) {
        return new ArrayList<>();
    }

    @Override
    public SessionState rollback(Rollback request) {
        throw new UnsupportedOperationException();
    }

    @Override
    public SessionState fork(Fork request) {
        throw new UnsupportedOperationException();
    }

    @Override
    public SessionState end(String sessionId, String actor) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void delete(String sessionId) {
        states.remove(sessionId);
    }

    @Override
    public List<String> liveSessions(String userId) {
        return List.of();
    }
}
