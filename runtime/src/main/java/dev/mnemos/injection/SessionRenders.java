package dev.mnemos.injection;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.session.SessionState;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Each session's last render ({@link RenderMemo}, block text and hash), the state its last step wrote,
 * and renders made ahead of a session's next step.
 * <p>
 * A step's render is mostly lookups in its memo; what it does count is the text that changed since
 * the last step: the version and step lines, the answer the step before wrote, a new plan, the
 * summary after a fold. All of that is known once the step before has written: the state it wrote is
 * the one the next step reads (unless another writer came in between). So after a step's write that
 * state is kept ({@link #known}: the next step's read is answered with it while the session is still at
 * its version), and the next step's block is rendered from it on a thread of Mnemos' own while the
 * application goes on. The next step's own render then finds every changed line counted and, when
 * nothing else changed, the very block already hashed; when the render ahead is still running, the step waits for it a little
 * ({@code aheadWait}) rather
 * than doing the same work beside it. A step that comes at once (an agent chaining calls) finds its render
 * ahead still queued: the render-ahead thread leaves each one a grace of 0.2 ms, and the step takes it over
 * ({@link #takeOver}) on its own thread while its read is on the way to Redis, so the render overlaps the
 * round trip instead of a second thread competing with the step and Redis for the cores. The render
 * ahead is only a memo: the step renders its block from the state it uses in every case, so a render
 * ahead that did not happen, came late or guessed wrong costs time, never correctness.
 * <p>
 * Renders ahead run on one daemon thread with a bounded queue; when the queue is full a render ahead
 * is dropped (its step renders as without one).
 */
final class SessionRenders implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SessionRenders.class);
    /** Renders ahead waiting for the thread; beyond that they are dropped. */
    private static final int QUEUE = 256;
    /**
     * How long the render-ahead thread leaves a render ahead to the session's next step: one that comes at
     * once (an agent chaining calls) takes it over while its read is on the way ({@link #takeOver}); one
     * that comes later finds the block ready.
     */
    private static final long GRACE_NANOS = 200_000;

    /**
     * A block with its SHA-256 (hex), which the step's trace records.
     *
     * @param renderedAhead whether the very block had been rendered ahead (the render found nothing left to count)
     */
    record Block(MemoryBlock block, String sha256, boolean renderedAhead) {
    }

    /**
     * What a session's last render left: for the state of {@code version}, by a step or ahead of one. A render
     * ahead also keeps what it rendered from (the state, the facts in their order; no overrides) and its block,
     * which a step given the same is shown as it is.
     */
    private record Last(long version, boolean ahead, RenderMemo memo, String text, String sha256, SessionState state,
            List<ProfileLine> ordered, MemoryBlock block) {

        static Last ofStep(long version, RenderMemo memo, String text, String sha256) {
            return new Last(version, false, memo, text, sha256, null, null, null);
        }

        /** Whether this is a render ahead of exactly what a step with these would render. */
        boolean renderedAheadOf(SessionState state, List<ProfileLine> ordered, List<TurnOverride> overrides) {
            return ahead && overrides.isEmpty() && (this.state == state || this.state.equals(state))
                    && this.ordered.equals(ordered);
        }
    }

    private final MemoryBlockRenderer renderer;
    /** Null when memos are off ({@link InjectionConfig#tokenCountCacheChars()} 0). */
    private final Cache<String, Last> last;
    /** The state each session's last step wrote, as a read gives it; null when renders ahead are off. */
    private final Cache<String, SessionState> known;
    /** Null when renders ahead are off. */
    private final ThreadPoolExecutor ahead;
    private final AtomicInteger pending = new AtomicInteger();
    /** Sessions whose render ahead is running now, with what tells its end. */
    private final ConcurrentHashMap<String, CountDownLatch> running = new ConcurrentHashMap<>();
    /** Each session's latest render ahead that no thread has started yet. */
    private final ConcurrentHashMap<String, Ahead> queued = new ConcurrentHashMap<>();
    /** How many of the latest plans a step reads: a known state keeps as many. */
    private final int readPlans;
    private final long aheadWaitNanos;

    /**
     * @param maxChars characters the memos may hold, and separately the known states (0: no memos, no render ahead)
     * @param readPlans how many of the latest plans a step's read gives (a known state keeps as many)
     * @param aheadWait how long a step waits for its block's render ahead when it is running
     */
    SessionRenders(MemoryBlockRenderer renderer, long maxChars, boolean renderAhead, int readPlans, Duration aheadWait) {
        this.renderer = renderer;
        this.readPlans = readPlans;
        this.aheadWaitNanos = aheadWait.toNanos();
        this.last = maxChars <= 0 ? null
                : Caffeine.newBuilder().maximumWeight(maxChars).executor(Runnable::run)
                        .weigher((String id, Last l) -> weight(id.length() + l.memo().chars() + l.text().length()))
                        .build();
        boolean on = last != null && renderAhead;
        this.known = !on ? null
                : Caffeine.newBuilder().maximumWeight(maxChars).executor(Runnable::run)
                        .weigher((String id, SessionState state) -> weight(id.length() + chars(state))).build();
        this.ahead = !on ? null
                : new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), task -> {
                    Thread thread = new Thread(task, "mnemos-render-ahead");
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /** Whether renders ahead are on. */
    boolean rendersAhead() {
        return ahead != null;
    }

    /** The step's block for {@code state}, rendered with what the session's last render left. */
    Block render(String sessionId, SessionState state, List<ProfileLine> facts, List<TurnOverride> overrides,
            String message) {
        if (last == null) {
            MemoryBlock block = renderer.render(state, facts, overrides, message);
            return new Block(block, block.sha256(), false);
        }
        awaitRunning(sessionId);
        Last before = last.getIfPresent(sessionId);
        List<ProfileLine> ordered = MemoryBlockRenderer.order(state, facts, message);
        if (before != null && before.renderedAheadOf(state, ordered, overrides)) {
            // what the render ahead rendered from is what this step has: a render is a function of that alone,
            // so its block is this step's, hashed already
            last.put(sessionId, Last.ofStep(state.version(), before.memo().aged(), before.text(), before.sha256()));
            return new Block(before.block(), before.sha256(), true);
        }
        MemoryBlockRenderer.Rendered rendered = renderer.renderOrdered(state, ordered, overrides,
                before == null ? RenderMemo.EMPTY.use() : before.memo().use());
        String text = rendered.block().text();
        boolean same = before != null && before.text().equals(text);
        boolean renderedAhead = same && before.ahead();
        String sha = same ? before.sha256() : rendered.block().sha256();
        MemoryBlock block = rendered.block();
        // a step's render always replaces what an ahead render left: it is what the session really showed
        last.put(sessionId, Last.ofStep(state.version(), rendered.memo(), block.text(), sha));
        return new Block(block, sha, renderedAhead);
    }

    /** Waits, up to the bound, for the session's render ahead when it is running now (not when it waits in the queue). */
    private void awaitRunning(String sessionId) {
        CountDownLatch done = running.get(sessionId);
        if (done == null) {
            return;
        }
        try {
            done.await(aheadWaitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Keeps {@code written} (the state the step just wrote, null when it cannot be told without a read) for the
     * session's next read ({@link #known}), and renders its block on the ahead thread for the session's next step.
     * The render is skipped when that step (or a later one) has rendered by then.
     *
     * @param facts the profile facts the step just rendered (the next step reads them again)
     * @param message the step's message, for the facts' order (the next message is not known yet)
     */
    void renderAhead(String sessionId, SessionState written, List<ProfileLine> facts, String message) {
        if (ahead == null) {
            return;
        }
        if (written == null) {
            known.invalidate(sessionId);
            return;
        }
        SessionState next = written.newestPlans(readPlans); // built on a read, it holds one more plan
        known.put(sessionId, next);
        pending.incrementAndGet();
        Ahead task = new Ahead(sessionId, next, facts, message);
        queued.put(sessionId, task);
        try {
            ahead.execute(task::runAhead);
        } catch (RejectedExecutionException e) {
            queued.remove(sessionId, task);
            pending.decrementAndGet(); // queue full, or shut down: the next step renders as without it
        }
    }

    /**
     * Renders, on the calling thread, the session's render ahead that the render-ahead thread has not started
     * yet (none: nothing to do). The session's next step calls this while its read is on the way: with steps
     * back to back the render then overlaps the round trip on the step's own thread, instead of waking
     * another thread to compete with the step and Redis for the cores.
     */
    void takeOver(String sessionId) {
        Ahead task = queued.remove(sessionId); // none when renders ahead are off
        if (task != null) {
            task.run();
        }
    }

    /** A render ahead of a session's next step; it runs once, on whichever thread claims it first. */
    private final class Ahead implements Runnable {

        private final String sessionId;
        private final SessionState state;
        private final List<ProfileLine> facts;
        private final String message;
        private final java.util.concurrent.atomic.AtomicBoolean claimed = new java.util.concurrent.atomic.AtomicBoolean();
        private final long queuedAt = System.nanoTime();

        Ahead(String sessionId, SessionState state, List<ProfileLine> facts, String message) {
            this.sessionId = sessionId;
            this.state = state;
            this.facts = facts;
            this.message = message;
        }

        /** On the render-ahead thread: after the grace the session's next step has to take this over. */
        void runAhead() {
            long left = queuedAt + GRACE_NANOS - System.nanoTime();
            if (left > 0 && !claimed.get()) {
                LockSupport.parkNanos(left);
            }
            run();
        }

        @Override
        public void run() {
            if (!claimed.compareAndSet(false, true)) {
                return; // the session's next step took it over
            }
            queued.remove(sessionId, this);
            CountDownLatch done = new CountDownLatch(1);
            running.put(sessionId, done);
            try {
                ahead(sessionId, state, facts, message);
            } catch (RuntimeException e) {
                LOG.debugf(e, "render ahead of session %s failed; its next step renders on its own", sessionId);
            } finally {
                running.remove(sessionId, done);
                done.countDown();
                pending.decrementAndGet();
            }
        }
    }

    private void ahead(String sessionId, SessionState state, List<ProfileLine> facts, String message) {
        Last before = last.getIfPresent(sessionId);
        if (before != null && before.version() >= state.version()) {
            return; // the next step (or a later one) has rendered already
        }
        List<ProfileLine> ordered = MemoryBlockRenderer.order(state, facts, message);
        MemoryBlockRenderer.Rendered rendered = renderer.renderOrdered(state, ordered, List.of(),
                before == null ? RenderMemo.EMPTY.useAhead() : before.memo().useAhead());
        MemoryBlock block = rendered.block();
        Last made = new Last(state.version(), true, rendered.memo(), block.text(), block.sha256(), state, ordered, block);
        last.asMap().compute(sessionId, (id, now) -> now == null || now.version() < made.version() ? made : now);
    }

    /**
     * The state this application's last step of the session wrote, with the latest plans a read gives, or
     * null (none, or renders ahead off). It is the session's current state unless someone else wrote since:
     * the read tells ({@link dev.mnemos.session.SessionStore#recentIfChanged}).
     */
    SessionState known(String sessionId) {
        return known == null ? null : known.getIfPresent(sessionId);
    }

    private static long chars(SessionState state) {
        long held = length(state.summary()) + length(state.goal()) + length(state.context());
        held += state.plans().stream().mapToLong(p -> length(p.content())).sum();
        return held + state.collected().values().stream().mapToLong(SessionRenders::length).sum();
    }

    private static int weight(long chars) {
        return (int) Math.min(Integer.MAX_VALUE, chars);
    }

    private static long length(String text) {
        return text == null ? 0 : text.length();
    }

    /** Renders ahead asked for and not run yet (nor dropped): for tests. */
    int pendingAhead() {
        return pending.get();
    }

    /**
     * Waits until every render ahead asked for so far has run (or was dropped), up to {@code max}: what an
     * application's own work between two steps gives it. For benchmarks and tests. @return whether they all ran
     */
    boolean awaitAhead(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (pending.get() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            LockSupport.parkNanos(10_000);
        }
        return true;
    }

    @Override
    public void close() {
        if (ahead != null) {
            ahead.shutdownNow();
        }
    }
}
