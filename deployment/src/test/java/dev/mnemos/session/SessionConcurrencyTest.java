package dev.mnemos.session;

import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** 32 writers × 200 steps on one session: nothing lost, versions strictly consecutive. */
class SessionConcurrencyTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties");

    static final int WRITERS = 32;
    static final int STEPS = 200;

    @Inject
    SessionStore store;
    @Inject
    SessionConfig config;

    @Test
    void concurrentAtomicPatchesLoseNoUpdate() throws Exception {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), null).by("test")).sessionId();
        run(writer -> {
            for (int i = 0; i < STEPS; i++) {
                store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("w" + writer + "-" + i, "v" + i).build())
                        .by("w" + writer));
            }
            return 0L;
        });
        assertNothingLost(id, 0);
    }

    @Test
    void concurrentCompareAndSetWithRetryLosesNothingAndDuplicatesNothing() throws Exception {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), null).by("test")).sessionId();
        AtomicLong conflicts = new AtomicLong();
        run(writer -> {
            long known = 1;
            for (int i = 0; i < STEPS; i++) {
                SessionPatch patch = SessionPatch.builder().putCollected("w" + writer + "-" + i, "v" + i).build();
                while (true) {
                    try {
                        known = store.apply(StepWrite.of(id, patch).expecting(known).by("w" + writer)).version();
                        break;
                    } catch (StaleVersionException e) {
                        conflicts.incrementAndGet();
                        known = e.actual();
                    }
                }
            }
            return 0L;
        });
        assertNothingLost(id, 0);
        assertThat(conflicts.get()).as("the writers really raced").isPositive();
    }

    private void assertNothingLost(String id, int ignored) {
        SessionState state = store.get(id);
        assertThat(state.collected()).hasSize(WRITERS * STEPS);
        for (int w = 0; w < WRITERS; w++) {
            for (int i = 0; i < STEPS; i++) {
                assertThat(state.collected()).containsEntry("w" + w + "-" + i, "v" + i);
            }
        }
        assertThat(state.version()).isEqualTo(1 + WRITERS * STEPS);
        // the live log keeps the retention window (trimmed while the session runs), every version in it once
        List<Long> versions = store.events(id, 1, 100_000).stream().map(SessionEvent::version).toList();
        long last = 1 + WRITERS * STEPS;
        assertThat(versions.get(0)).isLessThanOrEqualTo(Math.max(1, last - config.historyRetention() + 1));
        assertThat(versions).containsExactlyElementsOf(LongStream.rangeClosed(versions.get(0), last).boxed().toList());
        store.delete(id);
    }

    private interface Writer {
        Long write(int writer) throws Exception;
    }

    private static void run(Writer body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<Long>> futures = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                futures.add(pool.submit(() -> body.write(writer)));
            }
            for (Future<Long> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
