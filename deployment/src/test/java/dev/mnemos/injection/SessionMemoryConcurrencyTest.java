package dev.mnemos.injection;

import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Many agent steps and outside writers on one session at once: no write is lost, none is doubled. */
class SessionMemoryConcurrencyTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties")
            .withApplicationRoot(
                    jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class));

    private static final int THREADS = 6;
    private static final int STEPS = 5;
    private static final int EXTERNAL = 20;

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    SessionStore store;
    @Inject
    StepTraceStore traces;

    @Test
    void concurrentStepsAndExternalWritesAreAllKeptOrCleanlyRefused() throws Exception {
        model.reset();
        model.script(request -> {
            Thread.onSpinWait();
            return "ok";
        });
        String id = store
                .create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("busy").build()).by("test"))
                .sessionId();
        Set<String> written = ConcurrentHashMap.newKeySet();
        Set<String> refused = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> work = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            work.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < STEPS; i++) {
                    String key = "t" + thread + "-" + i;
                    try {
                        ai.note(id, key);
                        written.add(key);
                    } catch (StepWriteConflictException e) {
                        refused.add(key);
                    }
                }
                return null;
            }));
        }
        work.add(pool.submit(() -> {
            start.await();
            for (int i = 0; i < EXTERNAL; i++) {
                store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("ext." + i, "v").build()).noting("external")
                        .by("other-writer"));
            }
            return null;
        }));
        start.countDown();
        for (Future<?> f : work) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();

        SessionState after = store.get(id);
        assertThat(written.size() + refused.size()).isEqualTo(THREADS * STEPS);
        assertThat(written).isNotEmpty();
        written.forEach(key -> assertThat(after.collected()).containsEntry("m." + key, "ok"));
        refused.forEach(key -> assertThat(after.collected()).doesNotContainKey("m." + key));
        for (int i = 0; i < EXTERNAL; i++) {
            assertThat(after.collected()).containsKey("ext." + i);
        }
        assertThat(after.version()).isEqualTo(1L + written.size() + EXTERNAL);
        assertThat(after.stepPointer().index()).isEqualTo(written.size());
        int retries = traces.all(id).stream().mapToInt(t -> t.written().retries()).sum();
        assertThat(retries + refused.size()).as("the writers really raced: some write-back lost its CAS").isPositive();
    }

    @Test
    void sixtyFourConcurrentCallsOfOneSessionAllLand() throws Exception {
        model.reset();
        model.script(request -> "ok");
        String id = store
                .create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("crowded").build()).by("test"))
                .sessionId();
        int callers = 64;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<String>> calls = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            String key = "c" + i;
            calls.add(pool.submit(() -> {
                start.await();
                return ai.note(id, key);
            }));
        }
        start.countDown();
        int failed = 0;
        for (Future<String> call : calls) {
            try {
                call.get(2, TimeUnit.MINUTES);
            } catch (ExecutionException e) {
                failed++;
            }
        }
        pool.shutdown();

        assertThat(failed).as("calls that failed").isZero();
        SessionState after = store.get(id);
        assertThat(after.version()).isEqualTo(1L + callers);
        for (int i = 0; i < callers; i++) {
            assertThat(after.collected()).containsEntry("m.c" + i, "ok");
        }
        int retries = traces.all(id).stream().mapToInt(t -> t.written().retries()).sum();
        assertThat(retries).as("the callers really raced").isPositive();
    }
}
