package dev.mnemos.injection;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.erasure.UserErasure;
import dev.mnemos.profile.Category;
import dev.mnemos.profile.NewFact;
import dev.mnemos.profile.ProfileConfig;
import dev.mnemos.profile.ProfileRepository;
import dev.mnemos.profile.ProfileRevised;
import dev.mnemos.profile.ProfileRevisions;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.session.Fork;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StaleVersionException;
import dev.mnemos.session.StepWrite;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A {@code @SessionMemory} AI service's steps ({@code TripAi}) on the machine's Redis with the default settings, in one
 * application (each test a session of its own):
 * <ul>
 * <li>many agent steps and outside writers on one session at once: no write is lost, none is doubled;</li>
 * <li>step traces as the step's own write stores them (session-patch.lua), read back through the trace store
 * ({@code dev.mnemos.injection.trace.RedisStepTraceStore});</li>
 * <li>steps, version reads and forks go through the Quarkus Redis client, the application's own: Mnemos opens no
 * connection of its own (the path a Redis Cluster takes too, see RedisClusterSessionTest);</li>
 * <li>the copy of the profile revision in Redis ({@code dev.mnemos.profile.ProfileRevisions}, the same application): raised
 * by every write before it returns, so a step after the write sees it; trusted by a step whose cache holds that
 * revision (no Postgres read); offered back after a Postgres read; never lowered.</li>
 * </ul>
 */
class SessionMemoryStepsTest {

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
    @Inject
    InjectionConfig config;
    @Inject
    RedisDataSource redis;
    @Inject
    ObjectMapper json;
    @Inject
    ProfileService profiles;
    @Inject
    ProfileRevisions revisions;
    @Inject
    ProfileRepository repository;
    @Inject
    ProfileConfig profileConfig;
    @Inject
    UserErasure erasure;

    /** A user of each test's own (the profile revision's tests). */
    private String user;

    @BeforeEach
    void setUp() {
        model.reset();
        user = "u-" + SessionIds.newId();
    }

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

    // step traces as the step's own write stores them

    private static StepTrace trace(String id, long version) {
        return new StepTrace(id, "u-1", version, "chat", "TripAi.chat", Instant.parse("2026-01-01T00:00:00Z"),
                new StepTrace.Read(version - 1, ProfileSnapshot.Status.LOADED, ProfileSnapshot.Cache.HIT, 2),
                new StepTrace.Injected("abc", 10, 3, 1000, false, List.of(1), List.of("f1"),
                        List.of(new TurnOverride("output.language", "French", "English")), "<memory-data>中文 😀</memory-data>"),
                new StepTrace.Written(version - 1, version, 0, List.of("stepPointer")),
                new StepTrace.Timings(1, 2, 3, 4));
    }

    private String session() {
        return store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("traced").build()).by("test"))
                .sessionId();
    }

    private static SessionPatch step(long version) {
        return SessionPatch.builder().putCollected("answer", "at " + version).build();
    }

    /** The step write that produces {@code version}, carrying its trace. */
    private void writeWithTrace(String id, long version) {
        store.apply(StepWrite.of(id, step(version)).expecting(version - 1).noting("step").by("test")
                .traced(traces.entry(trace(id, version))));
    }

    @Test
    void traceIsStoredByItsStepsWriteAndCarriesTheSessionTtl() {
        String id = session();
        writeWithTrace(id, 2);
        assertThat(store.get(id).version()).isEqualTo(2);
        assertThat(traces.find(id, 2)).contains(trace(id, 2));
        assertThat(redis.key().pttl(SessionKeys.trace(id))).isPositive();
        assertThat(traces.find(id, 3)).isEmpty();
        store.delete(id);
        assertThat(traces.find(id, 2)).as("deleted with its session").isEmpty();
    }

    @Test
    void theBlockIsStoredAsItIsAfterTheTracesJsonAndEarlierJsonTracesStillRead() throws Exception {
        String id = session();
        writeWithTrace(id, 2);
        String stored = redis.hash(String.class).hget(SessionKeys.trace(id), "2");
        String block = trace(id, 2).injected().block();
        // one line of JSON without the block, then the block itself, not escaped
        assertThat(stored).endsWith("\n" + block);
        String head = stored.substring(0, stored.indexOf('\n'));
        assertThat(head).doesNotContain("memory-data").doesNotContain("\"block\"").contains("\"sha256\":\"abc\"");
        assertThat(traces.find(id, 2)).contains(trace(id, 2));

        // a trace an earlier version stored: JSON with the block inside
        writeWithTrace(id, 3);
        String earlier = json.writeValueAsString(trace(id, 3));
        redis.hash(String.class).hset(SessionKeys.trace(id), "3", earlier);
        assertThat(traces.find(id, 3)).contains(trace(id, 3));
        assertThat(traces.all(id)).containsExactly(trace(id, 2), trace(id, 3));
        assertThat(redis.hash(String.class).hget(SessionKeys.trace(id), "3")).isEqualTo(earlier);
        // a block with line breaks of its own comes back whole
        StepTrace multiline = trace(id, 4).withBlock("<memory-data>\nline one\n\nline \"two\"\n</memory-data>");
        store.apply(StepWrite.of(id, step(4)).expecting(3).noting("step").by("test").traced(traces.entry(multiline)));
        assertThat(traces.find(id, 4)).contains(multiline);
        assertThat(redis.hash(String.class).hget(SessionKeys.trace(id), "4")).endsWith(multiline.injected().block());
    }

    @Test
    void aRefusedWriteStoresNoTrace() {
        String id = session();
        assertThatThrownBy(() -> store
                .apply(StepWrite.of(id, step(3)).expecting(2).noting("step").by("test").traced(traces.entry(trace(id, 3)))))
                .isInstanceOf(StaleVersionException.class);
        assertThat(traces.all(id)).isEmpty();
        assertThatThrownBy(() -> store.apply(StepWrite.of(id, step(2)).ownedBy("u-someone-else").expecting(1).noting("step")
                .by("test").traced(traces.entry(trace(id, 2))))).isInstanceOf(SessionNotFoundException.class);
        assertThat(traces.all(id)).isEmpty();
        assertThat(store.get(id).version()).as("nothing written").isEqualTo(1);

        String gone = SessionIds.newId();
        assertThatThrownBy(() -> writeWithTrace(gone, 2)).isInstanceOf(SessionNotFoundException.class);
        assertThat(redis.key().exists(SessionKeys.trace(gone))).as("no trace key without its session").isFalse();
        store.delete(id);
    }

    @Test
    void tracesBeyondTheRetentionWindowAreDroppedEvenWhenOnlySomeVersionsHaveOne() {
        String id = session();
        int retention = config.traceRetention();
        long last = 0;
        // only every third version has a trace, as when HTTP steps and rollbacks write in between
        for (long v = 3; v <= 3L * (retention + 100); v += 3) {
            store.apply(StepWrite.of(id, step(v - 1)).expecting(OptionalLong.empty()).noting("http step").by("test"));
            writeWithTrace(id, v);
            store.apply(StepWrite.of(id, step(v + 1)).expecting(OptionalLong.empty()).noting("http step").by("test"));
            last = v;
        }
        long oldestKept = last - retention + 1;
        long inWindow = LongStream.rangeClosed(oldestKept, last).filter(v -> v % 3 == 0).count();
        for (long v = oldestKept + (3 - oldestKept % 3) % 3; v <= last; v += 3) {
            assertThat(traces.find(id, v)).as("version %d is inside the window", v).isPresent();
        }
        assertThat(traces.find(id, 3)).isEmpty();
        assertThat(inWindow).isPositive();
        assertThat(redis.hash(String.class).hlen(SessionKeys.trace(id))).as("bounded by the retention plus the sweep slack")
                .isLessThanOrEqualTo(retention + 65L);
        store.delete(id);
    }

    // steps through the Quarkus Redis client

    @Test
    void stepsUseTheQuarkusClient() {
        model.reset();
        model.script(request -> "through the client");
        String id = "off-" + SessionIds.newId();
        assertThat(ai.chat(id, "hello")).isEqualTo("through the client");
        assertThat(ai.chat(id, "again")).isEqualTo("through the client");
        SessionState state = store.get(id);
        assertThat(state.version()).isEqualTo(3);
        assertThat(state.collected()).containsEntry("answer.chat", "through the client");
        assertThat(given().get("/q/metrics").then().statusCode(200).extract().asString())
                .doesNotContain("mnemos_step_connections");
        // history and forks take the Quarkus client too
        assertThat(store.at(id, 2).collected()).containsEntry("answer.chat", "through the client");
        SessionState fork = store.fork(Fork.of(id, 2).by("test"));
        assertThat(fork.forkedFrom().sessionId()).isEqualTo(id);
        assertThat(store.get(fork.sessionId()).collected()).containsEntry("answer.chat", "through the client");
        assertThat(store.liveSessions(state.userId())).contains(id, fork.sessionId());
    }

    // the copy of the profile revision in Redis (dev.mnemos.profile)

    private String copy() {
        return redis.value(String.class).get(ProfileRevisions.key(user));
    }

    private void add(String text) {
        profiles.add(user, "test", new NewFact(Category.PREFERENCE, null, text, 0.95));
    }

    /** One step of the AI service; the trace of the version it wrote. */
    private StepTrace aiStep(String sessionId) {
        ai.chat(sessionId, "what next?");
        long version = store.get(sessionId).version();
        return traces.find(sessionId, version).orElseThrow();
    }

    @Test
    void everyWriteRaisesTheCopyBeforeItReturnsWithItsLifetime() {
        add("prefers window seats");
        long first = repository.revision(user);
        assertThat(copy()).isEqualTo(Long.toString(first));
        add("prefers quiet hotels");
        assertThat(copy()).isEqualTo(Long.toString(repository.revision(user))).isEqualTo(Long.toString(first + 1));
        assertThat(redis.key().pttl(ProfileRevisions.key(user))).isPositive()
                .isLessThanOrEqualTo(profileConfig.revisionMirrorTtl().toMillis());
    }

    /**
     * After an erasure the user's next profile never repeats a revision of the erased one: another pod that cached the
     * erased facts under such a revision would serve them again (issue 49 item 5).
     */
    @Test
    void aProfileWrittenAfterAnErasureStartsAboveTheErasedRevisions() {
        add("prefers window seats");
        add("prefers quiet hotels");
        long erased = repository.revision(user);
        erasure.erase(user, "test");
        assertThat(repository.revision(user)).isZero();
        add("travels with a bicycle");
        assertThat(repository.revision(user)).isGreaterThan(erased);
    }

    @Test
    void theCopyIsNeverLowered() {
        add("prefers window seats");
        long first = repository.revision(user);
        add("prefers quiet hotels");
        revisions.committed(new ProfileRevised(user, first));
        assertThat(copy()).isEqualTo(Long.toString(first + 1));
    }

    @Test
    void aStepTrustsTheCopyWhileItLivesAndReadsPostgresOnceItIsGone() {
        model.script(request -> "noted");
        add("prefers window seats");
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("plan a trip").build()).by("test"))
                .sessionId();
        StepTrace first = aiStep(id);
        assertThat(first.read().profile()).isEqualTo(ProfileSnapshot.Status.LOADED);
        assertThat(first.read().profileFacts()).isEqualTo(1);

        add("prefers quiet hotels");
        String second = Long.toString(repository.revision(user));
        assertThat(aiStep(id).read().profileFacts()).as("a step after the write sees it").isEqualTo(2);

        // a raise that did not reach Redis: the copy still names the second revision, whose facts the cache holds
        add("travels with a bicycle");
        String third = Long.toString(repository.revision(user));
        redis.value(String.class).set(ProfileRevisions.key(user), second);
        StepTrace stale = aiStep(id);
        assertThat(stale.read().profileFacts()).as("served from the cache on the copy's word, no Postgres read")
                .isEqualTo(2);
        assertThat(stale.read().profileCache()).isEqualTo(ProfileSnapshot.Cache.HIT);

        // once the copy is gone (expired) the step reads the revision in Postgres and offers it back
        redis.key().del(ProfileRevisions.key(user));
        assertThat(aiStep(id).read().profileFacts()).isEqualTo(3);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!third.equals(copy()) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(copy()).as("offered back after the Postgres read").isEqualTo(third);
        assertThat(aiStep(id).read().profileFacts()).isEqualTo(3);
    }

    @Test
    void everyStepOfASessionChecksTheCopyWithItsRead() {
        model.script(request -> "noted");
        add("prefers window seats");
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("plan a trip").build()).by("test"))
                .sessionId();

        aiStep(id);
        aiStep(id);
        add("prefers quiet hotels");
        StepTrace afterWrite = aiStep(id);
        redis.key().del(ProfileRevisions.key(user));
        StepTrace withoutCopy = aiStep(id);

        assertThat(afterWrite.read().profileFacts()).as("a write raised the copy the step read along").isEqualTo(2);
        assertThat(withoutCopy.read().profileFacts()).as("no copy: read from Postgres").isEqualTo(2);
        assertThat(withoutCopy.read().profileCache()).isEqualTo(ProfileSnapshot.Cache.HIT);
    }

    @Test
    void aUserWithoutProfileStepsWithAnEmptyOne() {
        model.script(request -> "noted");
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("plan a trip").build()).by("test"))
                .sessionId();
        assertThat(aiStep(id).read().profileFacts()).isZero();
        assertThat(aiStep(id).read().profileFacts()).isZero();
        assertThat(List.of(aiStep(id).read().profile())).containsExactly(ProfileSnapshot.Status.LOADED);
    }
}
