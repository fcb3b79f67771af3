package dev.mnemos.injection;

import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.concurrent.Callable;

/**
 * One read-before-write step around a model call: load and render, make the block current for
 * the system-message template, call, write back on the version read, store the trace. When the
 * model call fails nothing is written.
 */
@ApplicationScoped
public class StepCycle {

    private static final Logger LOG = Logger.getLogger(StepCycle.class);

    private final StepLoader loader;
    private final StepWriteBack writeBack;
    private final StepTraceStore traces;
    private final MemoryContext memory;
    private final InjectionMetrics metrics;
    private final StepResults results;

    public StepCycle(StepLoader loader, StepWriteBack writeBack, StepTraceStore traces, MemoryContext memory,
            InjectionMetrics metrics, StepResults results) {
        this.results = results;
        this.loader = loader;
        this.writeBack = writeBack;
        this.traces = traces;
        this.memory = memory;
        this.metrics = metrics;
    }

    public Object run(AiMethod method, Object[] args, Callable<Object> call) throws Exception {
        LoadedStep loaded;
        try {
            loaded = loader.load(method, args);
        } catch (RuntimeException e) {
            metrics.loadFailed(e);
            throw e;
        }
        metrics.load(loaded.loadNanos());
        metrics.profileLoaded(loaded.profile().status());
        metrics.render(loaded.renderNanos());
        try (MemoryContext.Scope ignored = memory.enter(loaded.active())) {
            long modelStart = System.nanoTime();
            Object result = call.call();
            long writeStart = System.nanoTime();
            StepWriteBack.Result written;
            try {
                written = writeBack.write(loaded, method, args, result);
            } catch (RuntimeException e) {
                metrics.writeFailed(e);
                throw e;
            }
            long writeNanos = System.nanoTime() - writeStart;
            metrics.write(writeNanos);
            metrics.written(written.retries());
            results.record(loaded.sessionId(), written.basis(), written.applied());
            saveTrace(trace(method, loaded, written, writeStart - modelStart, writeNanos));
            return result;
        }
    }

    private void saveTrace(StepTrace trace) {
        try {
            traces.save(trace);
        } catch (RuntimeException e) {
            LOG.warnf(e, "step trace of session %s version %d was not stored; the step itself was written",
                    trace.sessionId(), trace.version());
        }
    }

    private static StepTrace trace(AiMethod method, LoadedStep loaded, StepWriteBack.Result written, long modelNanos,
            long writeNanos) {
        MemoryBlock block = loaded.block();
        StepTrace.Read read = new StepTrace.Read(loaded.state().version(), loaded.profile().status(),
                loaded.profile().cache(), loaded.profile().facts().size());
        StepTrace.Injected injected = new StepTrace.Injected(block.sha256(), block.text().length(), block.tokens(),
                block.budget(), block.overBudget(), block.plansShown(), block.profileShown(), loaded.overrides(),
                block.text());
        StepTrace.Written write = new StepTrace.Written(written.basedOn(), written.version(), written.retries(),
                Patches.fields(written.patch()));
        StepTrace.Timings timings = new StepTrace.Timings(loaded.loadNanos() / 1000, loaded.renderNanos() / 1000,
                modelNanos / 1000, writeNanos / 1000);
        return new StepTrace(loaded.sessionId(), loaded.state().userId(), written.version(), method.step(),
                method.method().getDeclaringClass().getSimpleName() + "." + method.method().getName(), Instant.now(),
                read, injected, write, timings);
    }
}
