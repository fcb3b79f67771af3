package dev.mnemos.injection;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.app.Actor;
import dev.mnemos.app.SessionService;
import dev.mnemos.crypt.MemoryCipher;
import dev.mnemos.injection.step.AiMethod;
import dev.mnemos.injection.step.StepCycle;
import dev.mnemos.profile.Category;
import dev.mnemos.profile.NewFact;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.testsupport.Holdings;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

/**
 * What encryption at rest costs (issue 50), measured interleaved in one application: the same steps and session ends
 * with new values sealed and in clear, block after block in the order clear, sealed, sealed, clear, clear … so that both
 * see the same JIT, heap, Redis and machine. Each side has users and sessions of its own, written under its setting;
 * sealing is switched between two blocks ({@link SwitchedCipher}) with nothing in flight. Prints figures, asserts none.
 * <p>
 * Run: {@code ./mvnw -B -Pbench test -pl server -Dtest=EncryptionCostBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 * Sizes: {@code -Dbench.warmup=15000} steps first; {@code -Dbench.rounds=60} rounds of two blocks of
 * {@code -Dbench.block=25} steps for the single-client rows (a third of them for the steps after a 50 ms model call);
 * {@code -Dbench.clients=64} clients, {@code -Dbench.clientRounds=8} rounds of {@code -Dbench.clientBlock=30} steps
 * each; {@code -Dbench.ends=150} session ends a side. The figures are also written to
 * {@code target/bench/encryption-cost.txt}.
 */
@QuarkusTest
@TestProfile(EncryptionCostBenchmark.Switched.class)
class EncryptionCostBenchmark {

    /** The key-encryption key and the switchable cipher. */
    public static class Switched implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.mnemos.encryption.key", benchKey());
        }

        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(SwitchedCipher.class, PhaseTimedSpans.class, TimedSessionValues.class);
        }

        /** A throw-away key, the same in each of the profile's calls: SHA-256 of a fixed text. */
        private static String benchKey() {
            try {
                return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                        .digest("mnemos encryption cost benchmark".getBytes(StandardCharsets.UTF_8)));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private enum Side {
        CLEAR, SEALED;

        /**
         * The thread the side's blocks run on: one for both, or with {@code -Dbench.threadPerSide=true} one each, so that
         * a profile tells the sides apart (each block still alone). A thread of its own can cost or gain a side 10-20 %
         * at one client for a whole run (where the scheduler keeps it, beside Redis or not): measure with one.
         */
        final ExecutorService thread = Boolean.getBoolean("bench.threadPerSide")
                ? Executors.newSingleThreadExecutor(named("bench-" + name().toLowerCase()))
                : ONE_THREAD;
    }

    private static final ExecutorService ONE_THREAD = Executors.newSingleThreadExecutor(named("bench-sides"));

    /** Steps of a session before the next one replaces it (as the read-before-write benchmark's sessions). */
    private static final int SESSION_STEPS = 500;
    private static final long BETWEEN_STEPS_NANOS = 2_000_000;
    private static final int SESSIONS_PER_USER = 10;

    @Inject
    StepCycle cycle;
    @Inject
    SessionStore store;
    @Inject
    ProfileService profileService;
    @Inject
    SessionService sessions;
    @Inject
    ObjectMapper json;
    @Inject
    RedisDataSource redis;

    private final StringBuilder report = new StringBuilder();
    private AiMethod answer;
    private AiMethod plan;

    /** A session being stepped, on one side; replaced by a new one after {@link #SESSION_STEPS}. */
    private final class Lane {
        final Side side;
        String user;
        String id;
        int step;

        Lane(Side side) {
            this.side = side;
            renew();
        }

        /** The next step of the lane's session: its time without the model's, and the calling thread's CPU. */
        long[] next(long modelNanos, ThreadMXBean threads) throws Exception {
            if (step == SESSION_STEPS) {
                store.delete(id);
                renew();
            }
            step++;
            long cpu = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            long model = step(user, id, step, modelNanos);
            long wall = System.nanoTime() - start - model;
            return new long[] { wall, threads.getCurrentThreadCpuTime() - cpu };
        }

        private void renew() {
            switchTo(side);
            user = side.name().toLowerCase() + "-" + SessionIds.newId();
            id = newSession(user);
            step = 0;
        }
    }

    /** The figures of one side in one row: per step (or end), and per block. */
    private static final class Samples {
        final List<long[]> blocks = new ArrayList<>();
        final List<Long> cpu = new ArrayList<>();
        final List<Double> rates = new ArrayList<>();

        long[] all() {
            return blocks.stream().flatMapToLong(Arrays::stream).toArray();
        }
    }

    @FunctionalInterface
    private interface Block {
        /** Runs one block of a row on {@code side}, its figures added to {@code into}. */
        void run(Side side, Samples into) throws Exception;
    }

    @Test
    void run() throws Exception {
        answer = AiMethod.of(BenchSteps.class.getMethod("answer", String.class, String.class));
        plan = AiMethod.of(BenchSteps.class.getMethod("plan", String.class, String.class));
        int warmup = Integer.getInteger("bench.warmup", 15_000);
        int rounds = Integer.getInteger("bench.rounds", 60);
        int block = Integer.getInteger("bench.block", 25);
        int clients = Integer.getInteger("bench.clients", 64);
        int clientRounds = Integer.getInteger("bench.clientRounds", 8);
        int clientBlock = Integer.getInteger("bench.clientBlock", 30);
        int ends = Integer.getInteger("bench.ends", 150);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        line("Encryption at rest, sealed against clear, interleaved in one application  (cores: %d, load average at start: %.2f)",
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        line("blocks in the order clear, sealed, sealed, clear, clear, sealed …; each side its own users and sessions");
        line("(a read-before-write step as in InjectionBenchmark: 15 profile facts in Postgres, 5 constraints, a plan every 10th step)");
        Lane[] lanes = { new Lane(Side.CLEAR), new Lane(Side.SEALED) };
        for (int done = 0; done < warmup; done += 2 * 100) {
            for (Lane lane : lanes) {
                switchTo(lane.side);
                lane.side.thread.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        lane.next(0, threads);
                        LockSupport.parkNanos(BETWEEN_STEPS_NANOS);
                    }
                    return null;
                }).get();
            }
        }
        line("warm-up: %d steps, the sides alternating every 100", warmup);
        for (Lane lane : lanes) {
            // what each side stores: the session's goal as Redis holds it
            String goal = redis.hash(String.class).hget(SessionKeys.state(lane.id), "goal");
            if (MemoryCipher.denselySealed(goal) != (lane.side == Side.SEALED)) {
                throw new IllegalStateException(lane.side + " side stored its goal as " + goal);
            }
        }
        line("checked: the sealed side's goal in Redis is sealed, the clear side's is not");
        interleave("1 client, paced (2 ms between steps, untimed)", rounds, (side, into) -> steps(lanes[side.ordinal()],
                block, BETWEEN_STEPS_NANOS, 0, into, threads));
        PhaseTimedSpans.TIMES.clear();
        TimedSessionValues.reset();
        interleave("1 client, back to back", rounds, (side, into) -> steps(lanes[side.ordinal()], block, 0, 0, into,
                threads));
        for (TimedSessionValues.Call call : TimedSessionValues.Call.values()) {
            int c = call.ordinal();
            line("  session values' %s, a step: clear %.1f calls %.1f us, sealed %.1f calls %.1f us (on any thread)",
                    call.name().toLowerCase(), TimedSessionValues.CALLS[0][c].sum() / (double) (rounds * block),
                    TimedSessionValues.NANOS[0][c].sum() / 1e3 / (rounds * block),
                    TimedSessionValues.CALLS[1][c].sum() / (double) (rounds * block),
                    TimedSessionValues.NANOS[1][c].sum() / 1e3 / (rounds * block));
        }
        TimedSessionValues.BY_PLACE.forEach((call, sums) -> line("    sealed, %-18s %5.2f calls a step, %6.1f us a call, %7.0f characters a call",
                call, sums[1].sum() / (double) (rounds * block), sums[0].sum() / 1e3 / Math.max(1, sums[1].sum()),
                sums[2].sum() / (double) Math.max(1, sums[1].sum())));
        phases("a step's", List.of("mnemos.step.load", "mnemos.step.render", "mnemos.step.write",
                "mnemos.step.write (CPU of its thread)"));
        interleave("1 client, after a 50 ms model call (the model's time taken out)", Math.max(2, rounds / 3),
                (side, into) -> steps(lanes[side.ordinal()], 10, 0, TimeUnit.MILLISECONDS.toNanos(50), into, threads));
        sessionBytes(lanes);
        manyClients(clients, clientRounds, clientBlock);
        sessionEnds(ends);
        Path out = Path.of("target/bench/encryption-cost.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println("\n" + report);
    }

    private void steps(Lane lane, int count, long pauseNanos, long modelNanos, Samples into, ThreadMXBean threads)
            throws Exception {
        long[] wall = new long[count];
        long cpu = 0;
        for (int i = 0; i < count; i++) {
            long[] took = lane.next(modelNanos, threads);
            wall[i] = took[0];
            cpu += took[1];
            if (pauseNanos > 0) {
                LockSupport.parkNanos(pauseNanos);
            }
        }
        into.blocks.add(wall);
        into.cpu.add(cpu / count);
    }

    /** {@code rounds} rounds of a block on each side, the side that goes first alternating, and their figures. */
    private Samples[] interleave(String title, int rounds, Block block) throws Exception {
        Samples[] bySide = { new Samples(), new Samples() };
        for (int r = 0; r < rounds; r++) {
            Side first = r % 2 == 0 ? Side.CLEAR : Side.SEALED;
            for (Side side : first == Side.CLEAR ? Side.values() : new Side[] { Side.SEALED, Side.CLEAR }) {
                switchTo(side);
                side.thread.submit(() -> {
                    block.run(side, bySide[side.ordinal()]);
                    return null;
                }).get();
            }
        }
        line("");
        line("== %s: %d rounds", title, rounds);
        Samples clear = bySide[0];
        Samples sealed = bySide[1];
        Percentiles c = Percentiles.of(clear.all());
        Percentiles s = Percentiles.of(sealed.all());
        line("clear  : %s", c);
        line("sealed : %s", s);
        line("sealed / clear, p50 of all: %s;  p99: %s", change(s.p50(), c.p50()), change(s.p99(), c.p99()));
        line("  p50s of the two blocks of each round: %s", pairs(clear, sealed));
        if (!clear.cpu.isEmpty()) {
            double cpuClear = clear.cpu.stream().mapToLong(Long::longValue).average().orElse(0) / 1e6;
            double cpuSealed = sealed.cpu.stream().mapToLong(Long::longValue).average().orElse(0) / 1e6;
            line("  CPU of the calling thread, mean a step: clear %.3f ms, sealed %.3f ms (%s)", cpuClear, cpuSealed,
                    change(cpuSealed, cpuClear));
        }
        return bySide;
    }

    /**
     * {@code clients} clients, each a session on each side; each round one block of {@code steps} steps for every client
     * at once on one side, then on the other.
     */
    private void manyClients(int clients, int rounds, int steps) throws Exception {
        String[][] users = new String[2][clients];
        String[][] ids = new String[2][clients];
        for (Side side : Side.values()) {
            switchTo(side);
            for (int c = 0; c < clients; c++) {
                users[side.ordinal()][c] = side.name().toLowerCase() + "-" + SessionIds.newId();
                ids[side.ordinal()][c] = newSession(users[side.ordinal()][c]);
            }
        }
        int[][] stepOf = new int[2][clients];
        ExecutorService[] pools = { Executors.newFixedThreadPool(clients, named("clear-client")),
                Executors.newFixedThreadPool(clients, named("sealed-client")) };
        try {
            Samples[] bySide = interleave(clients + " clients, each a session of its own on each side; blocks of " + steps
                    + " steps a client", rounds, (side, into) -> {
                        int s = side.ordinal();
                        long[][] latencies = new long[clients][steps];
                        CountDownLatch go = new CountDownLatch(1);
                        List<Future<?>> work = new ArrayList<>();
                        for (int c = 0; c < clients; c++) {
                            int client = c;
                            work.add(pools[s].submit(() -> {
                                go.await();
                                for (int i = 0; i < steps; i++) {
                                    long start = System.nanoTime();
                                    step(users[s][client], ids[s][client], ++stepOf[s][client], 0);
                                    latencies[client][i] = System.nanoTime() - start;
                                }
                                return null;
                            }));
                        }
                        long start = System.nanoTime();
                        go.countDown();
                        for (Future<?> f : work) {
                            f.get();
                        }
                        double seconds = (System.nanoTime() - start) / 1e9;
                        into.blocks.add(Arrays.stream(latencies).flatMapToLong(Arrays::stream).toArray());
                        into.rates.add(clients * (double) steps / seconds);
                    });
            List<Double> clear = bySide[0].rates;
            List<Double> sealed = bySide[1].rates;
            StringBuilder byRound = new StringBuilder();
            for (int r = 0; r < clear.size(); r++) {
                byRound.append(r == 0 ? "" : ", ").append(String.format("%.0f/%.0f", clear.get(r), sealed.get(r)));
            }
            line("  steps a second, mean of the blocks: clear %.0f, sealed %.0f (%s: a minus is sealed slower); each round clear/sealed: %s",
                    mean(clear), mean(sealed), change(mean(sealed), mean(clear)), byRound);
        } finally {
            pools[0].shutdown();
            pools[1].shutdown();
        }
        for (Side side : Side.values()) {
            for (String id : ids[side.ordinal()]) {
                store.delete(id);
            }
        }
    }

    /**
     * Session ends ({@link SessionService#end}, what {@code POST /v1/sessions/{id}/end} calls) of sessions written in four
     * steps each as {@code .ci/bench/HttpEndBench.java} writes them, users of ten sessions each; one end on each side in
     * turn, after 50 unmeasured ends a side.
     */
    private void sessionEnds(int count) throws Exception {
        int warm = 50;
        List<List<String[]>> prepared = new ArrayList<>();
        for (Side side : Side.values()) {
            switchTo(side);
            prepared.add(prepare(side, warm + count));
        }
        for (int i = 0; i < warm; i++) {
            int at = i;
            for (Side side : Side.values()) {
                switchTo(side);
                side.thread.submit(() -> end(prepared.get(side.ordinal()).get(at))).get();
            }
        }
        int[] next = { warm, warm };
        PhaseTimedSpans.TIMES.clear();
        interleave("session ends, 1 client (SessionService.end: promotion, archive, clear; in process, no HTTP), one"
                + " end a block", count, (side, into) -> {
                    long start = System.nanoTime();
                    end(prepared.get(side.ordinal()).get(next[side.ordinal()]++));
                    into.blocks.add(new long[] { System.nanoTime() - start });
                });
        phases("an end's", List.of("mnemos.end", "mnemos.end.promote", "mnemos.end.archive", "mnemos.end.clear"));
    }

    /**
     * Redis' bytes of each side's current session ({@code MEMORY USAGE <key> SAMPLES 0} over its keys: state, undo
     * records and checkpoints, replay log, plans, traces), which have had the same steps on both sides.
     */
    private void sessionBytes(Lane[] lanes) {
        long[] bytes = new long[2];
        for (Lane lane : lanes) {
            bytes[lane.side.ordinal()] = Holdings.sessionBytes(redis, lane.id);
        }
        line("");
        line("== Redis bytes of each side's session after %d steps (a trace a step): clear %,d, sealed %,d (%.2fx)",
                lanes[0].step, bytes[0], bytes[1], bytes[1] / (double) bytes[0]);
    }

    /** The mean time of each of {@code names}' spans on each side since {@link PhaseTimedSpans#TIMES} was cleared. */
    private void phases(String of, List<String> names) {
        line("  mean time of %s phases (spans), clear / sealed:", of);
        for (String phase : names) {
            double[] means = Arrays.stream(Side.values()).mapToDouble(side -> {
                var sum = PhaseTimedSpans.TIMES.get(side.name().toLowerCase() + " / " + phase);
                return sum == null ? Double.NaN : sum[0].sum() / 1e6 / Math.max(1, sum[1].sum());
            }).toArray();
            line("    %-38s %7.3f ms / %7.3f ms (%s)", phase, means[0], means[1], change(means[1], means[0]));
        }
    }

    private List<String[]> prepare(Side side, int count) throws Exception {
        List<String[]> ends = new ArrayList<>();
        String user = null;
        for (int i = 0; i < count; i++) {
            if (i % SESSIONS_PER_USER == 0) {
                user = side.name().toLowerCase() + "-end-" + SessionIds.newId();
            }
            Actor who = new Actor(user, user);
            String id = sessions.create(who, SessionPatch.builder().goal("plan a trip to Kyoto " + i).build(), null, null)
                    .sessionId();
            for (String step : endSteps(i)) {
                sessions.step(who, id, json.readValue(step, SessionPatch.class), OptionalLong.empty(), null, null, null);
            }
            ends.add(new String[] { user, id });
        }
        return ends;
    }

    private void end(String[] userAndId) {
        Actor who = new Actor(userAndId[0], userAndId[0]);
        sessions.end(who, userAndId[1]);
    }

    /** The four steps of a session before its end, as {@code HttpEndBench.steps}: observations to promote and not. */
    private static List<String> endSteps(int i) {
        String[] standing = { "Always cite your sources", "From now on, answer with bullet points",
                "I prefer metric units", "Always reply in English", "Keep answers under 200 words" };
        return List.of(
                "{\"context\":\"a week in spring, two travellers\",\"addConstraints\":["
                        + "{\"text\":\"budget under $2000 for this trip\",\"scope\":\"TASK\"},"
                        + "{\"text\":\"never book red-eye flights\",\"scope\":\"STABLE\"}]}",
                "{\"addObservations\":["
                        + "{\"text\":\"From now on, use 24-hour times in plan " + i + "\",\"kind\":\"PREFERENCE\",\"explicit\":true},"
                        + "{\"text\":\"" + standing[i % standing.length] + "\",\"kind\":\"PREFERENCE\",\"explicit\":true},"
                        + "{\"text\":\"My budget is $500 for this trip\",\"kind\":\"PREFERENCE\",\"explicit\":true},"
                        + "{\"text\":\"Likes window seats\",\"kind\":\"PREFERENCE\",\"explicit\":false}]}",
                "{\"addPlan\":{\"content\":\"" + "day by day: temples, gardens, markets\\n".repeat(28)
                        + "\"},\"stepPointer\":{\"index\":1,\"name\":\"book\"}}",
                "{\"putCollected\":{\"hotel\":\"Gion, 5 nights\"},\"stepPointer\":{\"index\":2,\"name\":\"done\"}}");
    }

    /** Threads named {@code prefix}, {@code prefix-2} …, daemons. */
    private static ThreadFactory named(String prefix) {
        AtomicInteger made = new AtomicInteger();
        return task -> {
            int n = made.incrementAndGet();
            Thread thread = new Thread(task, n == 1 ? prefix : prefix + "-" + n);
            thread.setDaemon(true);
            return thread;
        };
    }

    private static void switchTo(Side side) {
        SwitchedCipher.sealing(side == Side.SEALED);
        PhaseTimedSpans.side = side.name().toLowerCase();
        TimedSessionValues.side = side.ordinal();
    }

    /**
     * A step of {@code user}'s session whose model answers after {@code modelNanos} (0: at once). @return how long the
     * model took, which the caller takes out of the step's time
     */
    private long step(String user, String id, int i, long modelNanos) {
        AiMethod method = BenchWorkload.planStep(i) ? plan : answer;
        String result = BenchWorkload.answer(id, i);
        long[] took = new long[1];
        ActingAs.user(user).call(() -> {
            try {
                return cycle.run(method, new Object[] { id, "step " + i + ": what is next?" }, () -> {
                    if (modelNanos > 0) {
                        long start = System.nanoTime();
                        LockSupport.parkNanos(modelNanos);
                        took[0] = System.nanoTime() - start;
                    }
                    return result;
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return took[0];
    }

    /** A session of {@code user}, whose 15 profile facts are stored in Postgres first. */
    private String newSession(String user) {
        IntStream.rangeClosed(1, BenchWorkload.FACTS).forEach(i -> profileService.add(user, "bench",
                new NewFact(Category.PREFERENCE, null, BenchWorkload.fact(i), BenchWorkload.confidence(i))));
        return store.create(NewSession.of(user, BenchWorkload.start()).by("bench")).sessionId();
    }

    /** Each round's two block p50s (clear/sealed), and the median and middle half of their sealed / clear ratios. */
    private static String pairs(Samples clear, Samples sealed) {
        double[] ratios = new double[clear.blocks.size()];
        for (int r = 0; r < ratios.length; r++) {
            ratios[r] = Percentiles.of(sealed.blocks.get(r)).p50() / Percentiles.of(clear.blocks.get(r)).p50();
        }
        Arrays.sort(ratios);
        return String.format("sealed / clear in each round: median %s, middle half %s to %s, sealed slower in %d of %d",
                change(ratios[ratios.length / 2], 1), change(ratios[ratios.length / 4], 1),
                change(ratios[(3 * ratios.length) / 4], 1), Arrays.stream(ratios).filter(x -> x > 1).count(),
                ratios.length);
    }

    private static String change(double sealed, double clear) {
        return String.format("%+.1f %%", 100 * (sealed / clear - 1));
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    private void line(String format, Object... args) {
        String text = String.format(format, args);
        report.append(text).append('\n');
        System.out.println("bench| " + text);
    }
}
