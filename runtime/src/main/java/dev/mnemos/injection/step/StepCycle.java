package dev.mnemos.injection.step;

import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.ActingUserUnknownException;
import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.MemoryContext;
import dev.mnemos.injection.StepNotStoredException;
import dev.mnemos.injection.StepResults;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepWriteMeters;
import dev.mnemos.injection.ToolRun;
import dev.mnemos.injection.chat.SessionChatMemoryProvider;
import dev.mnemos.injection.trace.ToolRuns;
import dev.mnemos.session.ReplicaWaitException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.tracing.MnemosSpans;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;

/**
 * One read-before-write step around a model call: load and render, make the block current for
 * the system-message template, call, write back on the version read with the step's trace (one
 * atomic write: the step and its trace are stored together). When the model call fails nothing is
 * written. A step whose answer is streamed is started and finished apart ({@link StreamedSteps}).
 */
@ApplicationScoped
public class StepCycle {

    private final StepLoader loader;
    private final StepWriteBack writeBack;
    private final MemoryContext memory;
    private final InjectionMetrics metrics;
    private final MnemosSpans spans;
    private final StepResults results;
    private final ToolRuns tools;

    /** A cycle that records the tools of its steps in a recorder of its own (for tests without a container). */
    public StepCycle(StepLoader loader, StepWriteBack writeBack, MemoryContext memory, InjectionMetrics metrics,
            MnemosSpans spans, StepResults results) {
        this(loader, writeBack, memory, metrics, spans, results, new ToolRuns());
    }

    @Inject
    public StepCycle(StepLoader loader, StepWriteBack writeBack, MemoryContext memory, InjectionMetrics metrics,
            MnemosSpans spans, StepResults results, ToolRuns tools) {
        this.results = results;
        this.tools = tools;
        this.loader = loader;
        this.writeBack = writeBack;
        this.memory = memory;
        this.metrics = metrics;
        this.spans = spans;
    }

    public Object run(AiMethod method, Object[] args, Callable<Object> call) throws Exception {
        try (MnemosSpans.Active step = spans.start("mnemos.step", null).attribute(MnemosSpans.STEP, method.step())) {
            try {
                return run(method, args, call, step);
            } catch (Exception e) {
                step.failed(e);
                throw e;
            }
        }
    }

    private Object run(AiMethod method, Object[] args, Callable<Object> call, MnemosSpans.Active step)
            throws Exception {
        LoadedStep loaded = load(method, args, step);
        try (MemoryContext.Scope ignored = memory.enter(loaded.active().inChatWindow(chatWindow(method)))) {
            long modelStart = System.nanoTime();
            Object result;
            List<ToolRun> ran;
            try (ToolRuns.Recording recording = tools.record(loaded.sessionId())) {
                result = model(loaded, call, modelStart);
                ran = recording.runs();
            }
            StepWriteBack.Result written = writeCurrent(method, args, loaded, result, ran, System.nanoTime() - modelStart,
                    null);
            step.attribute(MnemosSpans.VERSION, written.version());
            results.record(loaded.sessionId(), written.basis(), written.applied());
            return result;
        }
    }

    /**
     * The start of a step whose answer arrives after the call returns ({@link StreamedSteps}): loads, makes the block
     * current while {@code call} runs (the AI service renders its system message then) and returns what the call
     * returned, the stream whose end {@link #finish} writes.
     *
     * @param actor who the step acts for, established where the AI service was called ({@link #actor})
     */
    <T> Started<T> start(AiMethod method, Object[] args, ActingUser.Actor actor, Callable<T> call) throws Exception {
        try (MnemosSpans.Active step = spans.start("mnemos.step", null).attribute(MnemosSpans.STEP, method.step())) {
            try {
                LoadedStep loaded = load(method, args, actor, step);
                try (MemoryContext.Scope ignored = memory.enter(loaded.active().inChatWindow(chatWindow(method)))) {
                    long modelStart = System.nanoTime();
                    return new Started<>(loaded, model(loaded, call, modelStart), modelStart);
                }
            } catch (Exception e) {
                step.failed(e);
                throw e;
            }
        }
    }

    /** A started step: what it loaded, what its call returned and when that call started ({@link System#nanoTime}). */
    record Started<T>(LoadedStep loaded, T result, long modelStart) {
    }

    /**
     * Writes a started step's whole answer, once its stream ended: the same write as a step whose answer is returned.
     *
     * @param modelNanos from the call to the end of the stream
     * @param firstTokenNanos from the call to the first token, or null when none came
     */
    StepWriteBack.Result finish(AiMethod method, Object[] args, LoadedStep loaded, String answer, long modelNanos,
            Long firstTokenNanos) {
        try (MemoryContext.Scope ignored = memory.enter(loaded.active().inChatWindow(chatWindow(method)))) {
            return writeCurrent(method, args, loaded, answer, null, modelNanos, firstTokenNanos);
        }
    }

    /**
     * Starts a step whose call this cycle does not make but runs between two callbacks (an agent of an agentic
     * workflow, whose framework calls back before and after it): loads, makes the block current on this thread and
     * records the tools the calls of {@code agent} run, until {@link #close} or {@link #abandon}, on this thread, ends
     * it.
     *
     * @param agent the interface LangChain4j agentic built the agent of (its calls' memory id is not the session)
     */
    public Opened open(AiMethod method, Object[] args, Class<?> agent) {
        MnemosSpans.Active step = spans.start("mnemos.step", null).attribute(MnemosSpans.STEP, method.step());
        try {
            LoadedStep loaded = load(method, args, step);
            MemoryContext.Scope scope = memory.enter(loaded.active().inChatWindow(chatWindow(method)));
            return new Opened(method, args, loaded, step, scope, tools.record(loaded.sessionId(), agent), System.nanoTime());
        } catch (RuntimeException e) {
            step.failed(e);
            step.close();
            throw e;
        }
    }

    /** Writes an {@linkplain #open opened} step whose call returned {@code result}: the write of every step. */
    public long close(Opened opened, Object result) {
        try (opened) {
            List<ToolRun> ran = opened.recording.runs();
            StepWriteBack.Result written = writeCurrent(opened.method, opened.args, opened.loaded, result, ran,
                    System.nanoTime() - opened.modelStart, null);
            opened.step.attribute(MnemosSpans.VERSION, written.version());
            results.record(opened.loaded.sessionId(), written.basis(), written.applied());
            return written.version();
        } catch (RuntimeException e) {
            opened.step.failed(e);
            throw e;
        }
    }

    /** Ends an {@linkplain #open opened} step whose call failed with {@code error}: nothing is written. */
    public void abandon(Opened opened, Throwable error) {
        try (opened) {
            metrics.model(System.nanoTime() - opened.modelStart, false);
            opened.step.failed(error);
        }
    }

    /** A step between {@link #open} and {@link #close} or {@link #abandon}; its session is {@link #sessionId()}. */
    public static final class Opened implements AutoCloseable {

        private final AiMethod method;
        private final Object[] args;
        private final LoadedStep loaded;
        private final MnemosSpans.Active step;
        private final MemoryContext.Scope scope;
        private final ToolRuns.Recording recording;
        private final long modelStart;

        private Opened(AiMethod method, Object[] args, LoadedStep loaded, MnemosSpans.Active step,
                MemoryContext.Scope scope, ToolRuns.Recording recording, long modelStart) {
            this.method = method;
            this.args = args;
            this.loaded = loaded;
            this.step = step;
            this.scope = scope;
            this.recording = recording;
            this.modelStart = modelStart;
        }

        public String sessionId() {
            return loaded.sessionId();
        }

        /** Stops recording tools, leaves the block and ends the span, in that order. */
        @Override
        public void close() {
            recording.close();
            scope.close();
            step.close();
        }
    }

    /** The chat window of {@code method}'s calls: named after its AI service ({@link SessionChatMemoryProvider}). */
    static String chatWindow(AiMethod method) {
        return method.method().getDeclaringClass().getName();
    }

    /** Counts a started step whose stream failed after {@code modelNanos}: nothing is written. */
    void streamFailed(long modelNanos) {
        metrics.model(modelNanos, false);
    }

    /**
     * Who a step of {@code method} called on this thread acts for.
     *
     * @throws ActingUserUnknownException when it cannot be established in an application that authenticates
     */
    ActingUser.Actor actor(AiMethod method) {
        try {
            return loader.actor(method);
        } catch (RuntimeException e) {
            metrics.loadFailed(e);
            throw e;
        }
    }

    /** The read half of a step, for the actor of the calling thread. */
    private LoadedStep load(AiMethod method, Object[] args, MnemosSpans.Active step) {
        return load(method, args, actor(method), step);
    }

    /** The read half of a step, with its metrics and spans. */
    private LoadedStep load(AiMethod method, Object[] args, ActingUser.Actor actor, MnemosSpans.Active step) {
        Instant loadStart = Instant.now();
        LoadedStep loaded;
        try {
            loaded = loader.load(method, args, actor);
        } catch (RuntimeException e) {
            metrics.loadFailed(e);
            throw e;
        }
        step.attribute(MnemosSpans.SESSION_ID, loaded.sessionId());
        spans.phase("mnemos.step.load", loaded.sessionId(), loadStart, loaded.loadNanos());
        spans.phase("mnemos.step.render", loaded.sessionId(), loadStart.plusNanos(loaded.loadNanos()),
                loaded.renderNanos());
        metrics.load(loaded.loadNanos());
        metrics.profileLoaded(loaded.profile().status());
        metrics.render(loaded.renderNanos());
        metrics.injected(loaded.block());
        return loaded;
    }

    private <T> T model(LoadedStep loaded, Callable<T> call, long modelStart) throws Exception {
        try (MnemosSpans.Active model = spans.start("mnemos.step.model", loaded.sessionId())) {
            try {
                return call.call();
            } catch (Exception e) {
                model.failed(e);
                metrics.model(System.nanoTime() - modelStart, false);
                if (e instanceof SessionStoreUnavailableException) {
                    throw StepNotStoredException.chatWindow(loaded.sessionId(), loaded.state().version(), e);
                }
                throw e;
            }
        }
    }

    /**
     * The write half of a step, run with the step current on this thread ({@link MemoryContext#enter}).
     *
     * @param ran the tools the model call ran, or null when they were not recorded (a streamed step)
     */
    private StepWriteBack.Result writeCurrent(AiMethod method, Object[] args, LoadedStep loaded, Object result,
            List<ToolRun> ran, long modelNanos, Long firstTokenNanos) {
        long writeStart = System.nanoTime();
        metrics.model(modelNanos, true);
        StepWriteBack.Result written;
        try {
            written = spans.in("mnemos.step.write", loaded.sessionId(),
                    () -> writeBack.write(loaded, method, args, result, ran == null ? List.of() : ran,
                            (patch, basedOn, version, retries, writeNanos) -> trace(method, loaded, patch, basedOn,
                                    version, retries, modelNanos, firstTokenNanos, writeNanos, ran)));
        } catch (RuntimeException e) {
            metrics.writeFailed(e);
            if (e instanceof ReplicaWaitException unconfirmed) {
                throw StepNotStoredException.unconfirmed(loaded.sessionId(), unconfirmed);
            }
            throw storeFailure(e) ? new StepNotStoredException(loaded.sessionId(), loaded.state().version(), e) : e;
        }
        metrics.write(System.nanoTime() - writeStart);
        metrics.written(written.retries());
        return written;
    }

    /**
     * Whether a write failed because Redis failed or did not answer (Mnemos' own errors, or the client's raw ones, which
     * come wrapped in a {@link CompletionException}), not because of what was written.
     */
    private static boolean storeFailure(RuntimeException e) {
        return StepWriteMeters.redisDown(e) || e instanceof CompletionException
                || e.getClass().getName().startsWith("io.vertx.") || e.getClass().getName().startsWith("io.netty.");
    }

    /** The trace the write of version {@code version} carries; written time: see {@link StepWriteBack.Tracer}. */
    private static StepTrace trace(AiMethod method, LoadedStep loaded, SessionPatch patch, long basedOn, long version,
            int retries, long modelNanos, Long firstTokenNanos, long writeNanos, List<ToolRun> ran) {
        MemoryBlock block = loaded.block();
        StepTrace.Read read = new StepTrace.Read(loaded.state().version(), loaded.profile().status(),
                loaded.profile().cache(), loaded.profile().facts().size());
        StepTrace.Injected injected = new StepTrace.Injected(block.sha256(), block.text().length(), block.tokens(),
                block.budget(), block.overBudget(), block.plansShown(), block.profileShown(), loaded.overrides(),
                block.text());
        StepTrace.Written write = new StepTrace.Written(basedOn, version, retries, Patches.fields(patch));
        StepTrace.Timings timings = new StepTrace.Timings(loaded.loadNanos() / 1000, loaded.renderNanos() / 1000,
                modelNanos / 1000, writeNanos / 1000, firstTokenNanos == null ? null : firstTokenNanos / 1000);
        return new StepTrace(loaded.sessionId(), loaded.state().userId(), version, method.step(),
                method.method().getDeclaringClass().getSimpleName() + "." + method.method().getName(), Instant.now(),
                read, injected, write, timings, ran);
    }
}
