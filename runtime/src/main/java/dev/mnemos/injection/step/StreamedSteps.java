package dev.mnemos.injection.step;

import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.IncompleteStreamException;
import dev.mnemos.injection.chat.SessionChatMemoryProvider;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.AbstractMulti;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.context.ManagedExecutor;
import org.jboss.logging.Logger;

import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Steps whose answer is streamed ({@code Multi<String>}): the step starts when the stream is subscribed and is written
 * once, when the stream completes, with the whole answer (its tokens joined). A stream that fails or is cancelled
 * writes nothing, and so does one that completes although the provider did not end it normally (no finish reason:
 * {@link StreamFinishes}): the subscriber then sees it fail with {@link IncompleteStreamException}. Each subscription
 * is a step of its own.
 * <p>
 * No Redis round trip runs on an event-loop thread: the subscription (load, render, the AI service's own call, which
 * renders the system message while the block is current) runs on a worker thread, and a stream that completes on an
 * event loop is written on a worker thread before its completion is passed on. The subscriber sees the stream complete
 * after its step was written, and fail when that write fails. The chat window's copy kept for the version the step read
 * (for rollback and fork) is taken again once the stream ended, with the answer the framework added to the window. The worker
 * threads are the application's
 * {@link ManagedExecutor}: the caller's request context, and with it the authenticated user, goes along. Who the step
 * acts for is established where the AI service is called, before the stream is subscribed, so an {@code ActingAs} scope
 * around that call holds for the step.
 */
@ApplicationScoped
public class StreamedSteps {

    private static final Logger LOG = Logger.getLogger(StreamedSteps.class);

    private final StepCycle cycle;
    private final ManagedExecutor workers;
    private final SessionChatMemoryProvider chats;

    public StreamedSteps(StepCycle cycle, ManagedExecutor workers, SessionChatMemoryProvider chats) {
        this.cycle = cycle;
        this.workers = workers;
        this.chats = chats;
    }

    /** The stream of {@code call} (the AI service's {@code Multi<String>}) as one step per subscription. */
    public Multi<String> stream(AiMethod method, Object[] args, Callable<Object> call) {
        ActingUser.Actor actor;
        try {
            actor = cycle.actor(method);
        } catch (RuntimeException e) {
            return Multi.createFrom().failure(e);
        }
        return Multi.createFrom().deferred(() -> subscribed(method, args, actor, call)).runSubscriptionOn(workers);
    }

    @SuppressWarnings("unchecked")
    private Multi<String> subscribed(AiMethod method, Object[] args, ActingUser.Actor actor, Callable<Object> call) {
        StepCycle.Started<Object> started;
        try {
            started = cycle.start(method, args, actor, call);
        } catch (Exception e) {
            return Multi.createFrom().failure(e);
        }
        StreamedAnswer answer = new StreamedAnswer(started.modelStart());
        Multi<String> tokens = ((Multi<String>) started.result())
                .onItem().invoke(answer::add)
                .onFailure().invoke(e -> {
                    cycle.streamFailed(answer.sinceStart());
                    LOG.debugf("step %s of session %s: the stream failed (%s); nothing written", method.step(),
                            started.loaded().sessionId(), e.toString());
                })
                .onCancellation().invoke(() -> LOG.debugf("step %s of session %s: the stream was cancelled; nothing written",
                        method.step(), started.loaded().sessionId()))
                .onCompletion().call(() -> written(method, args, started, answer));
        return new AbstractMulti<>() {
            @Override
            public void subscribe(MultiSubscriber<? super String> subscriber) {
                // the model's request is sent while subscribing: StreamFinishes ties it to this answer
                StreamFinishes.subscribing(answer, () -> {
                    tokens.subscribe().withSubscriber(subscriber);
                    return null;
                });
            }
        };
    }

    /** The write of a completed stream: at once on a worker thread, handed to one from an event loop. */
    private Uni<StepWriteBack.Result> written(AiMethod method, Object[] args, StepCycle.Started<?> started,
            StreamedAnswer answer) {
        long modelNanos = answer.sinceStart();
        Optional<String> incomplete = answer.incomplete();
        if (incomplete.isPresent()) {
            cycle.streamFailed(modelNanos);
            LOG.warnf("step %s of session %s: %s; the partial answer (%d characters) was not written", method.step(),
                    started.loaded().sessionId(), incomplete.get(), answer.text().length());
            return Uni.createFrom().failure(new IncompleteStreamException(started.loaded().sessionId(), incomplete.get()));
        }
        Uni<StepWriteBack.Result> write = Uni.createFrom().item(() -> {
            chats.streamEnded(started.loaded().active().inChatWindow(StepCycle.chatWindow(method)));
            return cycle.finish(method, args, started.loaded(), answer.text(), modelNanos, answer.firstTokenNanos());
        });
        return Context.isOnEventLoopThread() ? write.runSubscriptionOn(workers) : write;
    }
}
