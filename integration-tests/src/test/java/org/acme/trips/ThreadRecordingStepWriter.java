package org.acme.trips;

import dev.mnemos.injection.DefaultStepWriter;
import dev.mnemos.injection.StepCall;
import dev.mnemos.session.SessionPatch;
import io.quarkus.arc.Unremovable;
import io.vertx.core.Context;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The default write-back, as a bean (so Mnemos uses it for every step), that notes on which thread each
 * session's steps were written.
 */
@Singleton
@Unremovable
public class ThreadRecordingStepWriter extends DefaultStepWriter {

    /** Where a step was written: the thread's name and whether it was an event loop. */
    record Written(String thread, boolean eventLoop) {
    }

    private final Map<String, List<Written>> written = new ConcurrentHashMap<>();

    @Override
    public SessionPatch patch(StepCall call) {
        written.computeIfAbsent(call.state().sessionId(), id -> new CopyOnWriteArrayList<>())
                .add(new Written(Thread.currentThread().getName(), Context.isOnEventLoopThread()));
        return super.patch(call);
    }

    /** The writes of {@code sessionId}'s steps so far (a retried write counts again), oldest first. */
    List<Written> of(String sessionId) {
        return List.copyOf(written.getOrDefault(sessionId, List.of()));
    }
}
