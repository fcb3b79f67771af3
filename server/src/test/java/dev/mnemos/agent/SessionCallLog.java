package dev.mnemos.agent;

import dev.mnemos.session.AppliedPatch;
import dev.mnemos.session.PlanPage;
import dev.mnemos.session.SessionPage;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;
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

    @Override
    public AppliedPatch apply(StepWrite write) {
        log(write.sessionId(), "write");
        return delegate.apply(write);
    }

    // Every default method is forwarded too: a default left to the decorator would call the decorated
    // bean's own overloads back through this decorator (ArC decorates self-invocations), without end.

    @Override
    public PlanPage plans(String sessionId, int from, int limit) {
        return delegate.plans(sessionId, from, limit);
    }

    @Override
    public SessionState at(String sessionId, long version, int latestPlans) {
        return delegate.at(sessionId, version, latestPlans);
    }

    @Override
    public void retire(String sessionId) {
        delegate.retire(sessionId);
    }

    @Override
    public SessionPage liveSessions(String userId, String after, int limit) {
        return delegate.liveSessions(userId, after, limit);
    }

    @Override
    public Uni<AppliedPatch> applyAsync(StepWrite write) {
        log(write.sessionId(), "write");
        return delegate.applyAsync(write);
    }

    @Override
    public Uni<SessionState> recentAsync(String sessionId, int latestPlans) {
        return delegate.recentAsync(sessionId, latestPlans);
    }
}
