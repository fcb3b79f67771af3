package org.acme.trips;

import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Many calls of one session at once, as a chat UI with several tabs or a fan-out workflow makes them. */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
class ConcurrentCallsTest {

    /**
     * 64 concurrent calls of one session all succeed with Mnemos' defaults: the application sets no pool size of its
     * own (the Redis client's own wait queue of 24 refuses calls from about 20 on; Mnemos raises it).
     */
    private static final int THREADS = 64;
    /** Concurrent calls of as many sessions. */
    private static final int SESSIONS = 256;

    @Inject
    TripPlanner planner;
    @Inject
    SessionStore sessions;

    @Test
    void concurrentCallsOfOneSessionAllLandInItsHistory() throws Exception {
        String id = "trip-" + UUID.randomUUID();
        planner.suggest(id, "A week in the Azores");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<String>> calls = new ArrayList<>();
        try {
            for (int i = 0; i < THREADS; i++) {
                String question = "question " + i;
                calls.add(pool.submit(() -> {
                    start.await();
                    return planner.suggest(id, question);
                }));
            }
            start.countDown();
            List<Throwable> failures = new ArrayList<>();
            for (Future<String> call : calls) {
                try {
                    assertThat(call.get(2, TimeUnit.MINUTES)).isEqualTo(OpenAiStub.ANSWER);
                } catch (ExecutionException e) {
                    failures.add(e.getCause());
                }
            }
            assertThat(failures).as("calls that failed").isEmpty();
        } finally {
            pool.shutdownNow();
        }

        SessionState after = sessions.get(id);
        assertThat(after.version()).isEqualTo(2L + THREADS);
        List<SessionEvent> events = sessions.events(id, 1, 1000);
        assertThat(events).hasSize(2 + THREADS);
        assertThat(events.stream().map(SessionEvent::version).distinct()).hasSize(2 + THREADS);
        assertThat(events).filteredOn(e -> "step suggest".equals(e.note())).hasSize(1 + THREADS);
    }

    @Test
    void concurrentCallsOfManySessionsAllLand() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
            ids.add("trip-" + UUID.randomUUID());
        }
        ExecutorService pool = Executors.newFixedThreadPool(SESSIONS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<String>> calls = new ArrayList<>();
        try {
            for (String id : ids) {
                calls.add(pool.submit(() -> {
                    start.await();
                    return planner.suggest(id, "A day in Coimbra");
                }));
            }
            start.countDown();
            List<Throwable> failures = new ArrayList<>();
            for (Future<String> call : calls) {
                try {
                    assertThat(call.get(2, TimeUnit.MINUTES)).isEqualTo(OpenAiStub.ANSWER);
                } catch (ExecutionException e) {
                    failures.add(e.getCause());
                }
            }
            assertThat(failures).as("calls that failed").isEmpty();
        } finally {
            pool.shutdownNow();
        }
        for (String id : ids) {
            assertThat(sessions.get(id).version()).as(id).isEqualTo(2L);
        }
        ids.forEach(sessions::delete); // 256 sessions of `anonymous` a run: not left to fill the shared Redis
    }
}
