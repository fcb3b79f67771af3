package dev.mnemos.injection.step;

import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.FakeSessionStore;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryContext;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.States;
import dev.mnemos.injection.StepProfiles;
import dev.mnemos.injection.StepResults;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.TestInjectionConfig;
import dev.mnemos.injection.TokenCounter;
import dev.mnemos.injection.TripAi;
import dev.mnemos.injection.block.MemoryBlockRenderer;
import dev.mnemos.session.NoSessionArchive;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.session.StepTraceEntry;
import dev.mnemos.tracing.MnemosSpans;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The next step's block is rendered while a step's write is on its way, from the state that write produces when
 * it wins; a step is shown it only when it read exactly that state.
 */
class RenderWhileWritingTest {

    private static final String RENDER_AHEAD = "mnemos-render-ahead";

    private final FakeSessionStore store = new FakeSessionStore();
    private final MemoryContext memory = new MemoryContext();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final InjectionConfig config = new TestInjectionConfig();
    /** Opened when the render-ahead thread counts a text: a render ahead has started. */
    private volatile CountDownLatch renderingAhead = new CountDownLatch(1);
    private final TokenCounter tokens = text -> {
        if (Thread.currentThread().getName().equals(RENDER_AHEAD)) {
            renderingAhead.countDown();
        }
        return TokenCounter.estimate().count(text);
    };
    private final StepLoader loader = new StepLoader(store, new NoSessionArchive(),
            StepProfiles.unguarded(userId -> ProfileSnapshot.missing()), config, Optional::empty, tokens);
    private AiMethod chat;
    private StepCycle cycle;

    @BeforeEach
    void setUp() throws Exception {
        chat = AiMethod.of(TripAi.class.getMethod("chat", String.class, String.class));
        store.put(States.state("plan a week in Kyoto", List.of(), List.of(), null));
        ActingUser acting = Optional::empty;
        StepTraceStore traces = new StepTraceStore() {
            @Override
            public StepTraceEntry entry(StepTrace trace) {
                return new StepTraceEntry("{}", 1);
            }

            @Override
            public Optional<StepTrace> find(String sessionId, long version) {
                return Optional.empty();
            }

            @Override
            public List<StepTrace> all(String sessionId) {
                return List.of();
            }
        };
        cycle = new StepCycle(loader,
                new StepWriteBack(store, config, acting, memory, new RollingSummary(config, false, (a, b, c) -> "unused"),
                        traces),
                memory, new InjectionMetrics(meters), MnemosSpans.noop(), new StepResults());
    }

    @AfterEach
    void close() throws Exception {
        loader.close();
    }

    /** Runs a step; returns the block its call was shown. */
    private String step(String message) throws Exception {
        List<String> shown = new CopyOnWriteArrayList<>();
        cycle.run(chat, new Object[] { "s-1", message }, () -> {
            shown.add(memory.block());
            return "answer to " + message;
        });
        return shown.get(0);
    }

    /** The block a plain render gives for the session as the store holds it now. */
    private String plainBlock(String message) {
        SessionState stored = store.recent("s-1", config.plansShown() + 1);
        return MemoryBlockRenderer.from(config, tokens).render(stored, List.of(), List.of(), message).text();
    }

    private double found() {
        return meters.counter("mnemos.block.rendered.ahead", "outcome", "used").count();
    }

    /** Waits, boundedly, for the render ahead to start; whether it did. */
    private boolean renderAheadStarted() {
        try {
            return renderingAhead.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void theNextBlockIsRenderedWhileTheWriteIsOnItsWayAndShownToTheNextStep() throws Exception {
        List<Boolean> startedDuringWrite = new CopyOnWriteArrayList<>();
        store.beforeWrite = () -> startedDuringWrite.add(renderAheadStarted());
        step("first question");
        assertThat(startedDuringWrite).as("the render ahead started before the write was applied").containsExactly(true);
        assertThat(store.get("s-1").version()).isEqualTo(8);

        Thread.sleep(100); // what an application does between two calls: the render ahead ends meanwhile
        store.beforeWrite = () -> {
        };
        String expected = plainBlock("second question");
        assertThat(step("second question")).contains("version 8").isEqualTo(expected);
        assertThat(found()).as("the second step was shown the block rendered ahead").isEqualTo(1);
    }

    @Test
    void aBlockRenderedForAWriteThatFailedIsNeverShown() throws Exception {
        store.beforeWrite = () -> {
            renderAheadStarted();
            throw new SessionStoreUnavailableException("Redis refused the write", null, false);
        };
        assertThatThrownBy(() -> step("first question")).isInstanceOf(SessionStoreUnavailableException.class);
        assertThat(renderingAhead.getCount()).as("a render ahead of the state it would have written").isZero();
        assertThat(store.get("s-1").version()).isEqualTo(7);

        Thread.sleep(100);
        store.beforeWrite = () -> {
        };
        String expected = plainBlock("second question");
        assertThat(step("second question")).contains("version 7").isEqualTo(expected);
        assertThat(found()).as("the block of version 8 that never was").isZero();
    }

    @Test
    void aWriteThatLostItsCompareAndSetRendersAgainForTheStateItWrote() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        store.beforeWrite = () -> {
            if (attempts.getAndIncrement() == 0) {
                // another writer comes in while the first attempt, on version 7, is on its way
                renderAheadStarted();
                renderingAhead = new CountDownLatch(1);
                store.change("s-1", s -> new SessionState(s.sessionId(), s.userId(), s.version() + 1, s.createdAt(),
                        s.updatedAt(), s.status(), s.goal(), "changed by another writer", s.constraints(),
                        s.openQuestions(), s.collected(), s.stepPointer(), s.plans(), s.observations(), s.summary(),
                        s.forkedFrom()));
            }
        };
        step("first question");
        assertThat(store.get("s-1").version()).as("written on the other writer's version 8").isEqualTo(9);

        Thread.sleep(100);
        store.beforeWrite = () -> {
        };
        String expected = plainBlock("second question");
        assertThat(step("second question")).contains("changed by another writer").isEqualTo(expected);
        assertThat(found()).as("the block of the version the retry wrote").isEqualTo(1);
    }
}
