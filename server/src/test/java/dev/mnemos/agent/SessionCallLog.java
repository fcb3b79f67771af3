package dev.mnemos.agent;

import dev.mnemos.session.AppliedPatch;
import dev.mnemos.session.Idempotency;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records, per watched session, the order of whole-state reads ({@code get}) and writes made
 * through the session store bean, so a test can tell whether a full read followed a step. Passes
 * every call on; sessions nobody watches are not recorded (the benchmarks run through this
 * decorator too).
 */
@Decorator
@Priority(10)
public abstract class SessionCallLog implements SessionStore {

    static final Map<String, List<String>> CALLS = new ConcurrentHashMap<>();

    @Inject
    @Delegate
    @Any
    SessionStore delegate;

    static List<String> of(String sessionId) {
        return List.copyOf(CALLS.getOrDefault(sessionId, List.of()));
    }

    /** Records the session's calls from now on (forgetting any recorded before). */
    static void watch(String sessionId) {
        CALLS.put(sessionId, new CopyOnWriteArrayList<>());
    }

    static void stop(String sessionId) {
        CALLS.remove(sessionId);
    }

    private static void log(String sessionId, String call) {
        List<String> calls = CALLS.get(sessionId);
        if (calls != null) {
            calls.add(call);
        }
    }

    @Override
    public SessionState get(String sessionId) {
        log(sessionId, "get");
        return delegate.get(sessionId);
    }

    /** Passed on as such: the interface's default would read the session alone, without the key along. */
    @Override
    public Along recentAlong(String sessionId, int latestPlans, String key) {
        return delegate.recentAlong(sessionId, latestPlans, key);
    }

    /** Passed on as such: the interface's default would always read the session. */
    @Override
    public Along recentIfChanged(String sessionId, int latestPlans, String key, SessionState known) {
        return delegate.recentIfChanged(sessionId, latestPlans, key, known);
    }

    @Override
    public long write(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion, String note,
            String actor) {
        log(sessionId, "write");
        return delegate.write(sessionId, owner, patch, expectedVersion, note, actor);
    }

    @Override
    public AppliedPatch apply(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion,
            String note, String actor) {
        log(sessionId, "write");
        return delegate.apply(sessionId, owner, patch, expectedVersion, note, actor);
    }

    @Override
    public long write(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion, String note,
            String actor, Idempotency idem) {
        log(sessionId, "write");
        return delegate.write(sessionId, owner, patch, expectedVersion, note, actor, idem);
    }

    @Override
    public AppliedPatch apply(String sessionId, String owner, SessionPatch patch, OptionalLong expectedVersion,
            String note, String actor, Idempotency idem) {
        log(sessionId, "write");
        return delegate.apply(sessionId, owner, patch, expectedVersion, note, actor, idem);
    }

    @Override
    public AppliedPatch apply(String sessionId, String owner, SessionPatch patch, long expectedVersion, String note,
            String actor, Idempotency idem, dev.mnemos.session.StepTraceEntry trace) {
        log(sessionId, "write");
        return delegate.apply(sessionId, owner, patch, expectedVersion, note, actor, idem, trace);
    }
}
