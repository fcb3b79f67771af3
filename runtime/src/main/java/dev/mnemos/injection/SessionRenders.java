package dev.mnemos.injection;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.session.SessionState;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Each session's last render ({@link RenderMemo}, block text and hash), and renders made ahead of a
 * session's next step.
 * <p>
 * A step's render is mostly lookups in its memo; what it does count is the text that changed since
 * the last step: the version and step lines, the answer the step before wrote, a new plan, the
 * summary after a fold. All of that is known once the step before has written: the state it wrote is
 * the one the next step reads (unless another writer came in between). So after a step's write, the
 * next step's block is rendered ahead on a thread of its own while the application goes on (with the
 * model call of the next step, far longer than a render): the next step's own render then finds every
 * changed line counted and, when nothing else changed, the very block already hashed. The ahead render
 * is only a memo: the step renders its block from the state it read in every case, so a render ahead
 * that did not happen, came late or guessed wrong costs time, never correctness.
 * <p>
 * Renders ahead run on one daemon thread with a bounded queue; when the queue is full a render ahead
 * is dropped (its step renders as without one).
 */
final class SessionRenders implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SessionRenders.class);
    /** Renders ahead waiting for the thread; beyond that they are dropped. */
    private static final int QUEUE = 256;

    /**
     * A block with its SHA-256 (hex), which the step's trace records.
     *
     * @param renderedAhead whether the very block had been rendered ahead (the render found nothing left to count)
     */
    record Block(MemoryBlock block, String sha256, boolean renderedAhead) {
    }

    /**
     * What a session's last render left: for the state of {@code version}, by a step or ahead of one
     * (then with that state, which the next step's read is answered with while the session is at it).
     */
    private record Last(long version, boolean ahead, RenderMemo memo, String text, String sha256, SessionState state) {

        long chars() {
            long held = memo.chars() + text.length();
            if (state != null) {
                held += length(state.summary()) + length(state.goal()) + length(state.context());
                held += state.plans().stream().mapToLong(p -> length(p.content())).sum();
                held += state.collected().values().stream().mapToLong(SessionRenders::length).sum();
            }
            return held;
        }
    }

    private final MemoryBlockRenderer renderer;
    /** Null when memos are off ({@link InjectionConfig#tokenCountCacheChars()} 0). */
    private final Cache<String, Last> last;
    /** Null when renders ahead are off. */
    private final ThreadPoolExecutor ahead;
    private final AtomicInteger pending = new AtomicInteger();
    /** How many of the latest plans a step reads: a state rendered ahead keeps as many. */
    private final int readPlans;

    /** @param readPlans how many of the latest plans a step's read gives (a state rendered ahead keeps as many) */
    SessionRenders(MemoryBlockRenderer renderer, long maxChars, boolean renderAhead, int readPlans) {
        this.renderer = renderer;
        this.readPlans = readPlans;
        this.last = maxChars <= 0 ? null
                : Caffeine.newBuilder().maximumWeight(maxChars).executor(Runnable::run)
                        .weigher((String id, Last l) -> (int) Math.min(Integer.MAX_VALUE,
                                id.length() + l.chars()))
                        .build();
        this.ahead = last == null || !renderAhead ? null
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
        Last before = last.getIfPresent(sessionId);
        MemoryBlockRenderer.Rendered rendered = renderer.render(state, facts, overrides, message,
                before == null ? RenderMemo.EMPTY.use() : before.memo().use());
        String text = rendered.block().text();
        boolean same = before != null && before.text().equals(text);
        String sha = same ? before.sha256() : rendered.block().sha256();
        // a step's render always replaces what an ahead render left: it is what the session really showed
        last.put(sessionId, new Last(state.version(), false, rendered.memo(), text, sha, null));
        return new Block(rendered.block(), sha, same && before.ahead());
    }

    /**
     * Renders, on the ahead thread, the block of the state {@code next} gives (the state of {@code version}
     * the step just wrote, or empty when it cannot be told without a read), for the session's next step.
     * Skipped when that step (or a later one) has rendered by then.
     *
     * @param facts the profile facts the step just rendered (the next step reads them again)
     * @param message the step's message, for the facts' order (the next message is not known yet)
     */
    void renderAhead(String sessionId, long version, Supplier<Optional<SessionState>> next, List<ProfileLine> facts,
            String message) {
        if (ahead == null) {
            return;
        }
        pending.incrementAndGet();
        try {
            ahead.execute(() -> {
                try {
                    if (!renderedSince(sessionId, version)) {
                        next.get().ifPresent(state -> ahead(sessionId, state, facts, message));
                    }
                } catch (RuntimeException e) {
                    LOG.debugf(e, "render ahead of session %s failed; its next step renders on its own", sessionId);
                } finally {
                    pending.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            pending.decrementAndGet(); // queue full, or shut down: the next step renders as without it
        }
    }

    /** Whether a render of version {@code version} of the session, or a later one, has been made. */
    private boolean renderedSince(String sessionId, long version) {
        Last before = last.getIfPresent(sessionId);
        return before != null && before.version() >= version;
    }

    private void ahead(String sessionId, SessionState state, List<ProfileLine> facts, String message) {
        Last before = last.getIfPresent(sessionId);
        if (before != null && before.version() >= state.version()) {
            return; // the step rendered while its state was being made
        }
        SessionState read = state.newestPlans(readPlans); // built on a read, it holds one more
        MemoryBlockRenderer.Rendered rendered = renderer.render(read, facts, List.of(), message,
                before == null ? RenderMemo.EMPTY.useAhead() : before.memo().useAhead());
        Last made = new Last(read.version(), true, rendered.memo(), rendered.block().text(), rendered.block().sha256(),
                read);
        last.asMap().compute(sessionId, (id, now) -> now == null || now.version() < made.version() ? made : now);
    }

    /**
     * The state last rendered ahead of the session's next step (the state its step before wrote, with the
     * latest plans a read gives), or null when the session's last render was a step's own.
     */
    SessionState known(String sessionId) {
        if (last == null) {
            return null;
        }
        Last l = last.getIfPresent(sessionId);
        return l == null || !l.ahead() ? null : l.state();
    }

    private static long length(String text) {
        return text == null ? 0 : text.length();
    }

    /**
     * Waits until every render ahead asked for so far has run (or was dropped), up to {@code max}. A
     * benchmark's or test's stand-in for the model call between two steps. @return whether they all ran
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
