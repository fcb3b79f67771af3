package dev.mnemos.injection.step;

import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryContext;
import dev.mnemos.injection.SessionMixUpException;
import dev.mnemos.injection.StepCall;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.StepWriteConflictException;
import dev.mnemos.injection.StepWriteRejectedException;
import dev.mnemos.injection.StepWriter;
import dev.mnemos.injection.ToolRun;
import dev.mnemos.session.AppliedPatch;
import dev.mnemos.session.Idempotency;
import dev.mnemos.session.InvalidPatchException;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.session.StaleVersionException;
import dev.mnemos.session.StepTraceEntry;
import dev.mnemos.session.StepWrite;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.jboss.logging.Logger;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The write half of a step: the writer's patch plus this turn's override observations and any
 * due summary fold, written as a compare-and-set on the version the step read. A lost
 * compare-and-set re-reads the session, asks the writer again against the fresh state and
 * retries until the write lands or {@link InjectionConfig#writeConflictWait()} has passed; then it fails
 * with {@link StepWriteConflictException}. After a few lost attempts it pauses a random fraction of a
 * millisecond, so that many callers of one session do not re-read in lockstep. A concurrent writer's change is never
 * overwritten. The
 * store checks the owner atomically with the write, so a session that changed hands or vanished
 * during the step is refused with {@link SessionMixUpException}.
 * <p>
 * The write carries the step's trace ({@link StepTraceStore#entry}), stored atomically with it.
 * <p>
 * Every write of one step call carries the same internal idempotency key, recorded by the store
 * atomically with the write. A write whose outcome is unknown (Redis timed out after the command
 * may have been sent) is retried once with that key: if the first one was applied, the retry
 * writes nothing and answers its version, so a step is never applied twice.
 */
@ApplicationScoped
class StepWriteBack {

    private static final Logger LOG = Logger.getLogger(StepWriteBack.class);
    static final String ACTOR = "mnemos-injection";

    private final SessionStore store;
    private final InjectionConfig config;
    private final MemoryContext memory;
    private final RollingSummary summary;
    private final StepTraceStore traces;
    private final StepWriters writers = new StepWriters();

    public StepWriteBack(SessionStore store, InjectionConfig config, MemoryContext memory,
            RollingSummary summary, StepTraceStore traces) {
        this.store = store;
        this.traces = traces;
        this.config = config;
        this.memory = memory;
        this.summary = summary;
    }

    /** The written patch, the version it produced and the version it was based on (the state {@code basis}). */
    record Result(SessionPatch patch, long basedOn, long version, int retries, SessionState basis, AppliedPatch applied) {
    }

    /** The trace of a write about to be sent: that write stores it, so it is made before the write's round trip. */
    interface Tracer {
        /**
         * @param version the version the write produces when it wins its compare-and-set on {@code basedOn}
         * @param writeNanos time spent on the write so far: the writer, the fold, lost attempts (not the round trip that
         *        stores the trace)
         */
        StepTrace trace(SessionPatch patch, long basedOn, long version, int retries, long writeNanos);
    }

    Result write(LoadedStep loaded, AiMethod method, Object[] args, Object result, List<ToolRun> tools, Tracer tracer) {
        long start = System.nanoTime();
        StepWriter writer = writers.get(method.binding().writer());
        SessionState basis = loaded.state();
        Idempotency idem = new Idempotency("step:" + SessionIds.newId(), "internal");
        for (int attempt = 0;; attempt++) {
            SessionGuard.checkWrite(loaded.state(), method.sessionId(args), basis, memory.current(),
                    loaded.actor().restrictedTo());
            SessionPatch patch = complete(writer.patch(call(method, args, result, basis, loaded.userMessage(), tools)), basis,
                    loaded,
                    method.step());
            try {
                StepTraceEntry trace = traces.entry(
                        tracer.trace(patch, basis.version(), basis.version() + 1, attempt, System.nanoTime() - start));
                AppliedPatch applied = writeOnce(loaded, patch, basis.version(), method.step(), idem, trace);
                long version = applied.version();
                LOG.debugf("step %s of session %s: wrote version %d on %d after %d retries", method.step(),
                        loaded.sessionId(), version, basis.version(), attempt);
                return new Result(patch, basis.version(), version, attempt, basis, applied);
            } catch (InvalidPatchException e) {
                throw new StepWriteRejectedException(loaded.sessionId(), e.field(), e.getMessage());
            } catch (SessionNotFoundException e) {
                throw new SessionMixUpException("session " + loaded.sessionId() + " no longer exists or has another owner than "
                        + loaded.state().userId());
            } catch (StaleVersionException e) {
                if (attempt > 0 && System.nanoTime() - start > config.writeConflictWait().toNanos()) {
                    throw new StepWriteConflictException(loaded.sessionId(), loaded.state().version(), attempt + 1);
                }
                LOG.debugf("step %s of session %s: version %d is stale (now %d), re-reading", method.step(),
                        loaded.sessionId(), basis.version(), e.actual());
                pauseAfter(attempt);
                basis = SummaryFolder.loadForFold(store, loaded.sessionId(), config.plansShown());
            }
        }
    }

    /** From the fourth lost attempt on, up to {@code attempt} × 0.1 ms (at most 2 ms), picked at random. */
    private static void pauseAfter(int attempt) {
        if (attempt >= 3) {
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(Math.min(attempt, 20) * 100_000L));
        }
    }

    /** One write; when its outcome is unknown, retried once with the same key (applied at most once). */
    private AppliedPatch writeOnce(LoadedStep loaded, SessionPatch patch, long basedOn, String step, Idempotency idem,
            StepTraceEntry trace) {
        try {
            return store.apply(StepWrite.of(loaded.sessionId(), patch).ownedBy(loaded.state().userId()).expecting(basedOn)
                    .noting("step " + step).by(ACTOR).keyed(idem).traced(trace));
        } catch (TimeoutException | SessionStoreUnavailableException e) {
            if (e instanceof SessionStoreUnavailableException u && !u.outcomeUnknown()) {
                throw e;
            }
            LOG.warnf("step %s of session %s: the write's outcome is unknown (%s); retrying it once with its key",
                    step, loaded.sessionId(), e.getMessage());
            return store.apply(StepWrite.of(loaded.sessionId(), patch).ownedBy(loaded.state().userId()).expecting(basedOn)
                    .noting("step " + step).by(ACTOR).keyed(idem).traced(trace));
        }
    }

    private static StepCall call(AiMethod method, Object[] args, Object result, SessionState basis, String message,
            List<ToolRun> tools) {
        return new StepCall(method.method(), Collections.unmodifiableList(Arrays.asList(args)), result, basis,
                method.step(), method.binding().output(), message, tools);
    }

    /** The writer's patch plus the step pointer (when the writer set none), override observations and a due fold. */
    private SessionPatch complete(SessionPatch patch, SessionState basis, LoadedStep loaded, String step) {
        SessionPatch.Builder extra = SessionPatch.builder();
        loaded.overrides().forEach(o -> extra.addObservation(o.observation(loaded.userMessage())));
        if (patch.summary() == null) {
            summary.fold(basis).ifPresent(fold -> extra
                    .summary(fold.summary()).putCollected(SummaryFolder.FOLDED_KEY, Integer.toString(fold.foldedThrough())));
        }
        return Patches.merge(patch, extra.build(), basis, step);
    }
}
