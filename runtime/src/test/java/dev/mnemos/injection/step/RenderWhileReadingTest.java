package dev.mnemos.injection.step;

import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.FakeSessionStore;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryContext;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.ProfileSource;
import dev.mnemos.injection.States;
import dev.mnemos.injection.StepProfiles;
import dev.mnemos.injection.StepResults;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.TestInjectionConfig;
import dev.mnemos.injection.TokenCounter;
import dev.mnemos.injection.TripAi;
import dev.mnemos.session.NoSessionArchive;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.StepTraceEntry;
import dev.mnemos.tracing.MnemosSpans;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Steps back to back: the next step's block, when the render-ahead thread has not started it, is rendered on the
 * step's own thread between sending the session's read and reading its reply.
 */
class RenderWhileReadingTest {

    private final FakeSessionStore store = new FakeSessionStore();
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private StepLoader loader;
    private StepCycle cycle;
    private AiMethod chat;

    @BeforeEach
    void setUp() throws Exception {
        chat = AiMethod.of(TripAi.class.getMethod("chat", String.class, String.class));
        SessionState s1 = States.state("plan a trip", List.of(), List.of(), null);
        store.put(s1);
        store.put(new SessionState("s-busy", s1.userId(), s1.version(), s1.createdAt(), s1.updatedAt(), s1.status(),
                s1.goal(), s1.context(), s1.constraints(), s1.openQuestions(), s1.collected(), s1.stepPointer(),
                s1.plans(), s1.observations(), s1.summary(), null));
        InjectionConfig config = new TestInjectionConfig();
        // the profile source names a key to read along with the session: the read is sent before its reply is read
        ProfileSource profiles = new ProfileSource() {
            @Override
            public ProfileSnapshot load(String userId) {
                return ProfileSnapshot.of(List.of(), ProfileSnapshot.Cache.MISS);
            }

            @Override
            public Optional<String> knownBy(String userId) {
                return Optional.of("profile-revision:" + userId);
            }
        };
        // every render's session line is noted in the store's read log, with the thread that counted it; the
        // render-ahead thread stops at a text of session s-busy until released
        TokenCounter tokens = text -> {
            boolean ahead = Thread.currentThread().getName().equals("mnemos-render-ahead");
            if (text.startsWith("session: ")) {
                store.reads.add((ahead ? "ahead " : "step ") + text.trim());
            }
            if (ahead && text.contains("\"s-busy\"")) {
                held.countDown();
                await(release);
            }
            return TokenCounter.estimate().count(text);
        };
        MemoryContext memory = new MemoryContext();
        loader = new StepLoader(store, new NoSessionArchive(), StepProfiles.unguarded(profiles), config,
                () -> ActingUser.Actor.unrestricted("anonymous"), tokens);
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
                new StepWriteBack(store, config, memory,
                        new RollingSummary(config, false, (a, b, c) -> "unused"), traces),
                memory, new InjectionMetrics(new SimpleMeterRegistry()), MnemosSpans.noop(), new StepResults());
    }

    @AfterEach
    void close() throws Exception {
        release.countDown();
        loader.close();
    }

    private void step(String sessionId) throws Exception {
        cycle.run(chat, new Object[] { sessionId, "hello" }, () -> "answer");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void theNextBlockIsRenderedOnTheStepsThreadWhileItsReadIsOnItsWay() throws Exception {
        step("s-busy"); // its render ahead holds the render-ahead thread
        assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();
        step("s-1"); // its render ahead waits behind the held one
        store.reads.clear();

        step("s-1");

        List<String> reads = List.copyOf(store.reads);
        assertThat(reads).as("sent, rendered here, then the reply read, and no render after it")
                .containsExactly("sent s-1", "step session: \"s-1\" version 8", "replied s-1");
        release.countDown();
    }

    @Test
    void aBlockTheThreadRenderedAheadIsNotRenderedAgain() throws Exception {
        step("s-1");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (store.reads.stream().noneMatch(r -> r.equals("ahead session: \"s-1\" version 8"))) {
            assertThat(System.nanoTime()).as("rendered ahead within 5 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
        Thread.sleep(50); // the thread has finished it
        store.reads.clear();

        step("s-1");

        // the render-ahead thread may already render the next step's block (version 9): only this step's own count
        assertThat(List.copyOf(store.reads).stream().filter(r -> !r.startsWith("ahead ")))
                .containsExactly("sent s-1", "replied s-1");
    }
}
