package dev.mnemos.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Redis session store in one application (each test a session of its own): versions, compare-and-set, retire,
 * recent; the replay log reproduces every state across checkpoints, rollbacks and forks; changing
 * {@code checkpoint-every} on a running deployment (versions written under the old interval still rebuild exactly, and a
 * version whose replay entries are gone answers "gone" rather than a wrongly rebuilt state); and concurrent writers on
 * one session: nothing lost, versions strictly consecutive.
 */
class RedisSessionStoreTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties");

    /** Writers on one session, each in a thread of its own. */
    static final int WRITERS = 32;
    /** Patches each writer applies without an expected version (no conflicts: the store serialises them). */
    static final int STEPS = 200;
    /**
     * Patches each writer applies with compare-and-set and retry: most attempts of 32 racing writers conflict, so the
     * attempts grow with writers × patches (200 each took 46 s here). 50 each still writes 1,601 versions (over three
     * times the retention window of 500) with every writer in the race from the first write.
     */
    static final int CAS_STEPS = 50;

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;
    @Inject
    SessionConfig config;
    @Inject
    ObjectMapper json;

    private SessionState newSession() {
        return store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("plan a trip")
                .addConstraint(new Constraint(null, "budget 5000 this time", Scope.TASK, "user")).build()).by("test"));
    }

    @Test
    void aRetiredSessionCannotStartAgainUnderItsIdWhileItsMarkerLives() {
        String id = SessionIds.newId();
        String user = "u-" + SessionIds.newId();
        assertThat(store.createIfAbsent(id, NewSession.of(user, SessionPatch.builder().goal("g").build()).by("t"))).isPresent();
        store.retire(id);

        assertThat(SessionKeys.all(id)).allSatisfy(key -> assertThat(redis.key().exists(key)).as(key).isFalse());
        assertThat(store.liveSessions(user)).isEmpty();
        assertThat(redis.key().pttl(SessionKeys.ended(id))).isBetween(1L, config.ttl().toMillis());
        assertThatThrownBy(
                () -> store.createIfAbsent(id, NewSession.of(user, SessionPatch.builder().goal("again").build()).by("t")))
                .isInstanceOf(SessionEndedException.class);
        assertThat(redis.key().exists(SessionKeys.state(id))).as("nothing written").isFalse();
        assertThat(store.liveSessions(user)).as("nor reserved").isEmpty();

        redis.key().del(SessionKeys.ended(id));
        assertThat(store.createIfAbsent(id, NewSession.of(user, SessionPatch.builder().goal("again").build()).by("t")))
                .isPresent();
        store.delete(id);
    }

    @Test
    void createStartsAtVersionOneWithInitialFields() {
        SessionState s = newSession();
        SessionState read = store.get(s.sessionId());
        assertThat(read).isEqualTo(s);
        assertThat(read.version()).isEqualTo(1);
        assertThat(read.constraints()).extracting(Constraint::text).containsExactly("budget 5000 this time");
        assertThat(read.constraints().get(0).id()).isNotBlank();
    }

    @Test
    void everyWriteBumpsVersionByOneAndStateMatchesReplay() {
        SessionState s = newSession();
        String id = s.sessionId();
        store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("city", "Kyoto").stepPointer(1, "collect").build())
                .noting("n1").by("test"));
        store.apply(
                StepWrite.of(id, SessionPatch.builder().addPlan("1. book\n2. go", null, null).addOpenQuestion("when?").build())
                        .expecting(2).by("test"));
        long v = store
                .apply(StepWrite.of(id, SessionPatch.builder().evaluatePlan(1, 6.5, "too vague").answerOpenQuestion("when?")
                        .addPlan("1. book flights\n2. hotel", 8.0, "better").build()).expecting(3).by("test"))
                .version();
        assertThat(v).isEqualTo(4);
        SessionState current = store.get(id);
        assertThat(current.plans()).extracting(PlanVersion::version).containsExactly(1, 2);
        assertThat(current.plans().get(0).score()).isEqualTo(6.5);
        assertThat(current.plans().get(0).content()).isEqualTo("1. book\n2. go");
        assertThat(current.openQuestions()).isEmpty();
        List<SessionEvent> events = store.events(id, 1, 100);
        assertThat(events).extracting(SessionEvent::version).containsExactly(1L, 2L, 3L, 4L);
        assertThat(SessionReplay.replay(null, events)).isEqualTo(current);
    }

    @Test
    void staleExpectedVersionIsRejectedWithCurrentVersionAndNothingWritten() {
        SessionState s = newSession();
        store.apply(StepWrite.of(s.sessionId(), SessionPatch.builder().goal("g2").build()).expecting(1).by("test"));
        assertThatThrownBy(() -> store
                .apply(StepWrite.of(s.sessionId(), SessionPatch.builder().goal("g3").build()).expecting(1).by("test"))
                .version())
                .isInstanceOfSatisfying(StaleVersionException.class, e -> assertThat(e.actual()).isEqualTo(2));
        assertThat(store.get(s.sessionId()).goal()).isEqualTo("g2");
    }

    @Test
    void evaluatingMissingPlanWritesNothing() {
        SessionState s = newSession();
        assertThatThrownBy(() -> store.apply(StepWrite.of(s.sessionId(), SessionPatch.builder().goal("changed")
                .evaluatePlan(7, 5.0, "x").build()).by("test")).version())
                .isInstanceOf(InvalidPatchException.class);
        assertThat(store.get(s.sessionId())).isEqualTo(s);
    }

    @Test
    void recentCarriesOnlyTheNewestPlansAndEverythingElseWhole() {
        SessionState s = newSession();
        for (int i = 1; i <= 10; i++) {
            store.apply(StepWrite.of(s.sessionId(), SessionPatch.builder().addPlan("plan " + i, i % 2 == 0 ? 5.0 : null, null)
                    .putCollected("k" + i, "v").build()).by("test")).version();
        }
        SessionState full = store.get(s.sessionId());
        SessionState recent = store.recent(s.sessionId(), 2);
        assertThat(full.plans()).hasSize(10);
        assertThat(recent.plans()).containsExactlyElementsOf(full.plans().subList(8, 10));
        assertThat(recent.plans().get(1).score()).isEqualTo(5.0);
        assertThat(recent.collected()).isEqualTo(full.collected());
        assertThat(recent.version()).isEqualTo(full.version());
        assertThat(store.recent(s.sessionId(), 0).plans()).isEmpty();
    }

    // the replay log

    @Test
    void replayingTheLogFromVersionOneYieldsTheCurrentStateAfterPatchesRollbacksAndFork() {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("g").build()).by("t"))
                .sessionId();
        List<SessionState> seen = new ArrayList<>();
        seen.add(store.get(id));
        for (int i = 0; i < 120; i++) {
            SessionPatch.Builder p = SessionPatch.builder().putCollected("k" + (i % 7), "v" + i).stepPointer(i, "s" + i);
            if (i % 5 == 0)
                p.addConstraint(new Constraint("c" + (i % 3), "constraint " + i, Scope.TASK, "user"));
            if (i % 11 == 0)
                p.addPlan("plan at " + i, null, null);
            if (i % 13 == 0)
                p.addOpenQuestion("q" + (i % 4)).answerOpenQuestion("q" + ((i + 1) % 4));
            if (i % 17 == 0)
                p.removeCollected("k3").removeConstraint("c1");
            if (i % 19 == 0)
                p.addObservation(new Observation(null, "likes tea " + i, null, Scope.STABLE, null, true, null));
            store.apply(StepWrite.of(id, p.build()).noting("step " + i).by("t"));
            if (i == 60)
                store.rollback(Rollback.of(id, 20).by("t"));
            if (i == 90)
                store.apply(StepWrite.of(id, SessionPatch.builder().evaluatePlan(1, 7.0, "ok").build()).by("t"));
            seen.add(store.get(id));
        }
        SessionState current = store.get(id);
        List<SessionEvent> log = store.events(id, 1, 10_000);
        assertThat(SessionReplay.replay(null, log)).isEqualTo(current);
        for (SessionState past : seen) {
            assertThat(store.at(id, past.version())).as("version %d", past.version()).isEqualTo(past);
        }

        SessionState fork = store.fork(Fork.of(id, 40).by("t"));
        store.apply(StepWrite.of(fork.sessionId(), SessionPatch.builder().goal("forked goal").build()).by("t"));
        SessionState forkNow = store.get(fork.sessionId());
        assertThat(SessionReplay.replay(null, store.events(fork.sessionId(), 1, 100))).isEqualTo(forkNow);
        assertThat(store.get(id)).as("the parent is untouched by its fork").isEqualTo(current);
    }

    @Test
    void rollbackCreatesNewVersionEqualToTargetAndKeepsHistory() {
        String id = store
                .create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("v1 goal").build()).by("t"))
                .sessionId();
        store.apply(StepWrite.of(id, SessionPatch.builder().goal("v2 goal").addPlan("plan A", 5.0, "meh").build()).by("t"));
        store.apply(StepWrite.of(id, SessionPatch.builder().addPlan("plan B", 8.0, "good").build()).by("t"));
        SessionState v2 = store.at(id, 2);

        SessionState rolled = store.rollback(Rollback.of(id, 2).expecting(3).by("t"));

        assertThat(rolled.version()).isEqualTo(4);
        assertThat(store.get(id)).isEqualTo(rolled);
        assertThat(rolled.plans()).isEqualTo(v2.plans());
        assertThat(rolled.goal()).isEqualTo("v2 goal");
        assertThat(store.at(id, 3).plans()).hasSize(2);
        SessionEvent last = store.events(id, 4, 1).get(0);
        assertThat(last.type()).isEqualTo(SessionEvent.Type.ROLLBACK);
        assertThat(last.toVersion()).isEqualTo(2);
    }

    @Test
    void forkStartsANewSessionOfTheSameUserLinkedToItsParent() {
        SessionState parent = store
                .create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("trip").build()).by("t"));
        store.apply(StepWrite.of(parent.sessionId(), SessionPatch.builder().putCollected("city", "Rome").build()).by("t"));
        store.apply(StepWrite.of(parent.sessionId(), SessionPatch.builder().putCollected("city", "Oslo").build()).by("t"));

        SessionState fork = store.fork(Fork.of(parent.sessionId(), 2).by("t"));

        assertThat(fork.sessionId()).isNotEqualTo(parent.sessionId());
        assertThat(fork.userId()).isEqualTo(parent.userId());
        assertThat(fork.version()).isEqualTo(1);
        assertThat(fork.collected()).containsEntry("city", "Rome");
        assertThat(fork.forkedFrom()).isEqualTo(new ForkOrigin(parent.sessionId(), 2));
        assertThat(store.liveSessions(parent.userId())).containsExactlyInAnyOrder(parent.sessionId(), fork.sessionId());
        assertThat(redis.key().pttl(SessionKeys.userSessions(parent.userId()))).as("every key has a TTL").isPositive();
        SessionKeys.all(fork.sessionId()).stream().filter(k -> redis.key().exists(k))
                .forEach(k -> assertThat(redis.key().pttl(k)).as(k).isPositive());
    }

    // a changed checkpoint interval

    SessionConfig every(int checkpointEvery, int retention) {
        return new SessionConfig() {
            public Duration ttl() {
                return Duration.ofMinutes(10);
            }

            public int historyRetention() {
                return retention;
            }

            public int checkpointEvery() {
                return checkpointEvery;
            }

            public int maxTextChars() {
                return 10_000;
            }

            public int maxPlanChars() {
                return 10_000;
            }

            public int maxItemsPerPatch() {
                return 100;
            }

            public Duration redisTimeout() {
                return Duration.ofSeconds(3);
            }

            public Duration slowRedisTimeout() {
                return Duration.ofSeconds(5);
            }

            public int maxLivePerUser() {
                return 1000;
            }

            public long maxSessionBytes() {

                return 1 << 20;

            }

            public long maxUserBytes() {

                return 0;

            }
        };
    }

    @Test
    void versionsWrittenUnderAnotherIntervalRebuildExactly() {
        RedisSessionStore old = new RedisSessionStore(redis, every(10, 1000), json);
        RedisSessionStore changed = new RedisSessionStore(redis, every(4, 1000), json);
        String id = old.create(NewSession.of("interval-user", SessionPatch.builder().goal("g").build()).by("t")).sessionId();
        Map<Long, SessionState> written = new HashMap<>();
        for (int i = 1; i <= 45; i++) {
            SessionPatch.Builder patch = SessionPatch.builder().putCollected("k" + (i % 7), "v" + i);
            if (i % 5 == 0) {
                patch.addPlan("plan " + i, null, null);
            }
            long version = old.apply(StepWrite.of(id, patch.build()).by("t")).version();
            written.put(version, old.at(id, version));
        }
        for (long v = 2; v <= 46; v++) {
            assertThat(changed.at(id, v)).as("version %d", v).isEqualTo(written.get(v));
        }
        // later writes keep undo records only, and mixed histories still rebuild
        for (int i = 0; i < 10; i++) {
            changed.apply(StepWrite.of(id, SessionPatch.builder().putCollected("n", "x" + i).build()).by("t"));
        }
        assertThat(changed.at(id, 44)).isEqualTo(written.get(44L));
        assertThat(changed.at(id, 52).collected()).containsEntry("n", "x5");
        changed.delete(id);
    }

    @Test
    void aVersionWhoseHistoryIsGoneIsGoneNotGuessed() {
        RedisSessionStore store = new RedisSessionStore(redis, every(10, 1000), json);
        String id = store.create(NewSession.of("interval-user", SessionPatch.builder().goal("g").build()).by("t")).sessionId();
        for (int i = 1; i <= 25; i++) {
            store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("k", "v" + i).build()).by("t"));
        }
        // without the undo records of versions 13 to 15 (their block: versions 0 to 15), versions before them are
        // replayed from the log, as sessions written with checkpoints are; with a replay entry gone too, they are gone
        redis.hash(String.class).hdel(SessionKeys.snapshots(id), "U0");
        assertThat(store.at(id, 12).collected()).containsEntry("k", "v11");
        assertThat(store.at(id, 13).collected()).containsEntry("k", "v12");
        redis.execute("XDEL", SessionKeys.events(id), "5-0");
        assertThatThrownBy(() -> store.at(id, 12)).isInstanceOf(VersionGoneException.class);
        assertThat(store.at(id, 21).collected()).containsEntry("k", "v20");
        store.delete(id);
    }

    // concurrent writers on one session

    @Test
    void concurrentAtomicPatchesLoseNoUpdate() throws Exception {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), null).by("test")).sessionId();
        run(writer -> {
            for (int i = 0; i < STEPS; i++) {
                store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("w" + writer + "-" + i, "v" + i).build())
                        .by("w" + writer));
            }
        });
        assertNothingLost(id, STEPS);
    }

    @Test
    void concurrentCompareAndSetWithRetryLosesNothingAndDuplicatesNothing() throws Exception {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), null).by("test")).sessionId();
        AtomicLong conflicts = new AtomicLong();
        run(writer -> {
            long known = 1;
            for (int i = 0; i < CAS_STEPS; i++) {
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
        });
        assertNothingLost(id, CAS_STEPS);
        assertThat(conflicts.get()).as("the writers really raced").isPositive();
    }

    /** Each writer's {@code steps} entries are there once, and the versions run 1 to 1 + writers × steps. */
    private void assertNothingLost(String id, int steps) {
        SessionState state = store.get(id);
        assertThat(state.collected()).hasSize(WRITERS * steps);
        for (int w = 0; w < WRITERS; w++) {
            for (int i = 0; i < steps; i++) {
                assertThat(state.collected()).containsEntry("w" + w + "-" + i, "v" + i);
            }
        }
        long last = 1 + WRITERS * steps;
        assertThat(state.version()).isEqualTo(last);
        // the live log keeps the retention window (trimmed while the session runs), every version in it once
        assertThat(last).as("more versions than the retention window").isGreaterThan(config.historyRetention());
        List<Long> versions = store.events(id, 1, 100_000).stream().map(SessionEvent::version).toList();
        assertThat(versions.get(0)).isLessThanOrEqualTo(Math.max(1, last - config.historyRetention() + 1));
        assertThat(versions).containsExactlyElementsOf(LongStream.rangeClosed(versions.get(0), last).boxed().toList());
        store.delete(id);
    }

    private interface Writer {
        void write(int writer) throws Exception;
    }

    /** {@link #WRITERS} threads run {@code body}, all released at once so that they overlap from their first write. */
    private static void run(Writer body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        CountDownLatch ready = new CountDownLatch(WRITERS);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    body.write(writer);
                    return null;
                }));
            }
            assertThat(ready.await(30, TimeUnit.SECONDS)).as("every writer started").isTrue();
            go.countDown();
            for (Future<Void> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
