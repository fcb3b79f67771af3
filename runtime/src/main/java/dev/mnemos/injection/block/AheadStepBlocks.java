package dev.mnemos.injection.block;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TurnOverride;
import dev.mnemos.session.SessionState;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Memo renders ({@link MemoStepBlocks}), plus the block of a session's next step rendered as soon as a step
 * has written: the state it wrote is the one the next step reads unless another writer came in between. That
 * render runs on one daemon thread of Mnemos' own (a bounded queue: when it is full a render ahead is dropped)
 * while the application goes on to its next call. A step given exactly what the render ahead rendered from
 * (that state, no overrides, its facts in the same order) is shown that block; any other step renders its own
 * from the memo, which the render ahead left with every changed line counted. A render ahead is only a memo:
 * one that did not happen, came late or guessed wrong costs time, never a different block. A step whose render
 * ahead is running waits for it a little rather than doing the same work beside it; a step that comes while
 * its render ahead still waits for the thread runs it itself while its session's read is on its way
 * ({@link #whileReading}).
 */
public final class AheadStepBlocks implements StepBlocks, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(AheadStepBlocks.class);
    /** Renders ahead waiting for the thread; beyond that they are dropped. */
    private static final int QUEUE = 256;
    /**
     * How long a render ahead waits for the thread after it was queued: a step that follows at once (an agent
     * chaining calls) takes it over while its read is on its way ({@link #whileReading}), where the thread would
     * render beside that step on the same cores.
     */
    private static final long GRACE_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    /** How long a step waits for its render ahead when that is running. */
    private static final long WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    /** A block rendered ahead (and hashed), with what it was rendered from. */
    private record Made(SessionState state, List<ProfileLine> ordered, Block block) {
    }

    private final MemoStepBlocks memo;
    private final Cache<String, Made> ahead = Caffeine.newBuilder().maximumSize(10_000).executor(Runnable::run).build();
    /** Renders ahead waiting for the thread, by session: the thread or the session's next step runs each. */
    private final ConcurrentHashMap<String, Queued> queued = new ConcurrentHashMap<>();
    /** Sessions whose render ahead is running now, with what tells its end. */
    private final ConcurrentHashMap<String, CountDownLatch> running = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUE), task -> {
                Thread daemon = new Thread(task, "mnemos-render-ahead");
                daemon.setDaemon(true);
                return daemon;
            });

    AheadStepBlocks(MemoStepBlocks memo) {
        this.memo = memo;
    }

    @Override
    public Block render(String sessionId, SessionState state, List<ProfileLine> facts, List<TurnOverride> overrides,
            String message) {
        awaitRunning(sessionId);
        Made made = ahead.asMap().remove(sessionId);
        if (made != null && overrides.isEmpty() && made.state().equals(state)
                && made.ordered().equals(ProfileRelevance.order(facts, state.goal(), message))) {
            // a render is a function of what it rendered from: the very block of this step
            return new Block(made.block().block(), made.block().sha256(), Ahead.FOUND);
        }
        Block rendered = memo.render(sessionId, state, facts, overrides, message);
        return new Block(rendered.block(), rendered.sha256(), Ahead.NOT_FOUND);
    }

    @Override
    public void written(String sessionId, SessionState next, List<ProfileLine> facts, String message) {
        if (next == null) {
            return;
        }
        Queued task = new Queued(sessionId, next, facts, message);
        queued.put(sessionId, task);
        try {
            thread.execute(task);
        } catch (RejectedExecutionException e) {
            queued.remove(sessionId, task);
            LOG.debugf("render ahead of session %s dropped (queue full); its next step renders on its own", sessionId);
        }
    }

    /**
     * The session's render ahead when the thread has not started it yet runs here, while the step's read is on its
     * way: with steps back to back the render overlaps that round trip instead of waiting for the thread.
     */
    @Override
    public void whileReading(String sessionId) {
        Queued task = queued.remove(sessionId);
        if (task != null) {
            task.runOnce();
        }
    }

    /** A render ahead waiting for the thread: whichever of the thread and the session's next step comes first runs it. */
    private final class Queued implements Runnable {

        private final String sessionId;
        private final SessionState next;
        private final List<ProfileLine> facts;
        private final String message;
        private final AtomicBoolean taken = new AtomicBoolean();
        private final long queuedAt = System.nanoTime();

        Queued(String sessionId, SessionState next, List<ProfileLine> facts, String message) {
            this.sessionId = sessionId;
            this.next = next;
            this.facts = facts;
            this.message = message;
        }

        /** On the thread, once the grace since it was queued has passed: a next step that came at once takes it over. */
        @Override
        public void run() {
            long left = queuedAt + GRACE_NANOS - System.nanoTime();
            if (left > 0 && !taken.get()) {
                LockSupport.parkNanos(left);
            }
            queued.remove(sessionId, this);
            runOnce();
        }

        void runOnce() {
            if (taken.compareAndSet(false, true)) {
                renderAhead(sessionId, next, facts, message);
            }
        }
    }

    private void renderAhead(String sessionId, SessionState next, List<ProfileLine> facts, String message) {
        if (memo.renderedVersion(sessionId) >= next.version()) {
            return; // the next step (or a later one) has rendered already
        }
        CountDownLatch done = new CountDownLatch(1);
        running.put(sessionId, done);
        try {
            Block block = memo.render(sessionId, next, facts, List.of(), message);
            ahead.put(sessionId, new Made(next, ProfileRelevance.order(facts, next.goal(), message), block));
        } catch (RuntimeException e) {
            LOG.debugf(e, "render ahead of session %s failed; its next step renders on its own", sessionId);
        } finally {
            running.remove(sessionId, done);
            done.countDown();
        }
    }

    private void awaitRunning(String sessionId) {
        CountDownLatch done = running.get(sessionId);
        if (done == null) {
            return;
        }
        try {
            done.await(WAIT_NANOS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the session's render ahead is running now: a seam for tests. */
    boolean running(String sessionId) {
        return running.containsKey(sessionId);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
