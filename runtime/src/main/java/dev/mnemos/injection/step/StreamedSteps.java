package dev.mnemos.injection.step;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.context.ManagedExecutor;
import org.jboss.logging.Logger;

import java.util.concurrent.Callable;

/**
 * Steps whose answer is streamed ({@code Multi<String>}): the step starts when the stream is subscribed and is written
 * once, when the stream completes, with the whole answer (its tokens joined). A stream that fails or is cancelled
 * writes nothing; each subscription is a step of its own.
 * <p>
 * No Redis round trip runs on an event-loop thread: the subscription (load, render, the AI service's own call, which
 * renders the system message while the block is current) runs on a worker thread, and a stream that completes on an
 * event loop is written on a worker thread before its completion is passed on. The subscriber sees the stream complete
 * after its step was written, and fail when that write fails. The worker threads are the application's
 * {@link ManagedExecutor}: the caller's request context, and with it the authenticated user, goes along.
 */
@ApplicationScoped
public class StreamedSteps {

    private static final Logger LOG = Logger.getLogger(StreamedSteps.class);

    private final StepCycle cycle;
    private final ManagedExecutor workers;

    public StreamedSteps(StepCycle cycle, ManagedExecutor workers) {
        this.cycle = cycle;
        this.workers = workers;
    }

    /** The stream of {@code call} (the AI service's {@code Multi<String>}) as one step per subscription. */
    public Multi<String> stream(AiMethod method, Object[] args, Callable<Object> call) {
        return Multi.createFrom().deferred(() -> subscribed(method, args, call)).runSubscriptionOn(workers);
    }

    @SuppressWarnings("unchecked")
    private Multi<String> subscribed(AiMethod method, Object[] args, Callable<Object> call) {
        StepCycle.Started<Object> started;
        try {
            started = cycle.start(method, args, call);
        } catch (Exception e) {
            return Multi.createFrom().failure(e);
        }
        StreamedAnswer answer = new StreamedAnswer(started.modelStart());
        return ((Multi<String>) started.result())
                .onItem().invoke(answer::add)
                .onFailure().invoke(e -> {
                    cycle.streamFailed(answer.sinceStart());
                    LOG.debugf("step %s of session %s: the stream failed (%s); nothing written", method.step(),
                            started.loaded().sessionId(), e.toString());
                })
                .onCancellation().invoke(() -> LOG.debugf("step %s of session %s: the stream was cancelled; nothing written",
                        method.step(), started.loaded().sessionId()))
                .onCompletion().call(() -> written(method, args, started, answer));
    }

    /** The write of a completed stream: at once on a worker thread, handed to one from an event loop. */
    private Uni<StepWriteBack.Result> written(AiMethod method, Object[] args, StepCycle.Started<?> started,
            StreamedAnswer answer) {
        long modelNanos = answer.sinceStart();
        Uni<StepWriteBack.Result> write = Uni.createFrom().item(() -> cycle.finish(method, args, started.loaded(),
                answer.text(), modelNanos, answer.firstTokenNanos()));
        return Context.isOnEventLoopThread() ? write.runSubscriptionOn(workers) : write;
    }
}
