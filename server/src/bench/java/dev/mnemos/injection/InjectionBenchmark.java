package dev.mnemos.injection;

import dev.mnemos.testsupport.ScriptedProfileSource;
import dev.mnemos.injection.ActingAs;
import dev.mnemos.injection.block.TokenEstimator;
import dev.mnemos.injection.step.AiMethod;
import dev.mnemos.injection.step.StepCycle;
import dev.mnemos.profile.Category;
import dev.mnemos.profile.NewFact;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.faulttolerance.api.Guard;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The read-before-write benchmark (issue 4; targets in the README): prints figures, asserts none.
 * Run with {@code mvn -Pbench test}; it is not part of the normal test run. Sizes:
 * {@code -Dbench.sessions=10 -Dbench.steps=1000 -Dbench.clients=64 -Dbench.clientSteps=200}; back to back
 * {@code -Dbench.backToBackSessions=3}, and with a model that answers in {@code -Dbench.modelMillis=50}
 * {@code -Dbench.modelSessions=2 -Dbench.modelSteps=200}. The
 * LoCoMo replay runs only with {@code -Dbench.locomo=<path to locomo10.json>} (the data set is
 * CC BY-NC 4.0 and not part of this repository; a relative path is resolved against {@code server/});
 * without it that part is skipped with a note. The figures are also written to
 * {@code target/bench/injection.txt}.
 */
@QuarkusTest
class InjectionBenchmark {


    @Inject
    StepCycle cycle;
    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;
    @Inject
    ScriptedProfileSource profiles;
    @Inject
    MemoryContext memory;
    @Inject
    ProfileService profileService;
    @Inject
    InjectionConfig config;
    @Inject
    MeterRegistry meters;
    @Inject
    AgroalDataSource postgres;

    /**
     * Sessions run back to back, unmeasured, before the back-to-back pass: what the JIT compiles for steps that wait for none.
     */
    private static final int BACK_TO_BACK_WARMUP = 2;
    /** {@code -Dbench.profile=memory}: the 15 facts from a scripted in-memory source (the session path alone). */
    /** The untimed pause between two steps of the 1-client pass. */
    private static final long BETWEEN_STEPS_NANOS = 2_000_000;
    private static final boolean PROFILE_IN_MEMORY = "memory".equals(System.getProperty("bench.profile"));

    private final StringBuilder report = new StringBuilder();
    private final Map<String, String> owners = new ConcurrentHashMap<>();
    private AiMethod answer;
    private AiMethod plan;
    /** The floor of the run (Redis and Postgres round trips), measured before the warm-up. */
    private long[] raw;
    private long[][] guarded;
    private long[] socket;
    private long[] postgresTrips;
    /** {@link SessionStore#get} alone, after 10 and after 1,000 steps of the warm-up's first session. */
    private long[] freshReads;
    private long[] grownReads;

    @Test
    void run() throws Exception {
        answer = AiMethod.of(BenchSteps.class.getMethod("answer", String.class, String.class));
        plan = AiMethod.of(BenchSteps.class.getMethod("plan", String.class, String.class));
        line("Mnemos read-before-write benchmark  (cores: %d, load average at start: %.2f)",
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        line("step overhead = load session + profile (15 facts %s), render block, CAS write-back carrying the step trace; model excluded",
                PROFILE_IN_MEMORY ? "in memory: -Dbench.profile=memory" : "in Postgres");
        // the JIT needs about 20,000 steps of this application to settle: after 3,000 its compiler
        // threads still ran for most of the measured seconds, on 2 cores beside the steps and Redis
        // (the "JIT while measuring" line says what is left)
        int warmup = Integer.getInteger("bench.warmup", 20_000);
        int steps = Integer.getInteger("bench.steps", 1000);
        line("warm-up                  : %d steps (-Dbench.warmup), sessions of 1,000 steps, before anything is measured",
                warmup);
        // the floor first, and every measured session (15 facts embedded and stored in Postgres each) created
        // before the warm-up: other work between the warm-up and the steps (another client's GETs, Postgres
        // inserts) left the JIT recompiling what the steps share with it for seconds into the measured steps
        measureFloor();
        String[] paused = newSessions(Integer.getInteger("bench.sessions", 10));
        String[] chained = newSessions(BACK_TO_BACK_WARMUP + Integer.getInteger("bench.backToBackSessions", 3));
        int modelMillis = Integer.getInteger("bench.modelMillis", 50);
        String[] modelled = newSessions(1 + Integer.getInteger("bench.modelSessions", 2));
        for (int done = 0; done < warmup; done += 1000) {
            singleSession(Math.min(1000, warmup - done), done == 0);
        }
        overheadAtOneClient(paused, steps);
        backToBack(chained, steps, BACK_TO_BACK_WARMUP, 0);
        backToBack(modelled, Integer.getInteger("bench.modelSteps", 200), 1,
                TimeUnit.MILLISECONDS.toNanos(modelMillis));
        overheadAtManyClients(Integer.getInteger("bench.clients", 64), Integer.getInteger("bench.clientSteps", 200));
        String locomo = System.getProperty("bench.locomo", "");
        if (locomo.isBlank()) {
            line("");
            line("== LoCoMo: skipped (no data set; run with -Dbench.locomo=<path to locomo10.json>, CC BY-NC 4.0, not in this repository)");
        } else {
            locomo(new File(locomo));
        }
        Path out = Path.of("target/bench/injection.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println("\n" + report);
    }

    /** A session of {@code steps} steps; {@code timeReads}: also times store reads of it after 10 and 1,000 steps. */
    private void singleSession(int steps, boolean timeReads) throws Exception {
        String id = newSession();
        for (int i = 1; i <= steps; i++) {
            if (timeReads && i == 10) {
                freshReads = reads(id, 500);
            }
            step(id, i);
            betweenSteps();
        }
        if (timeReads) {
            grownReads = reads(id, 500);
        }
        store.delete(id);
    }

    private void measureFloor() throws Exception {
        rawRoundTrips(1, 20_000); // warm-up: the first GETs of the run are slower
        raw = rawRoundTrips(1, 20_000);
        guarded = guardedRoundTrips(10, 2_000);
        socket = socketRoundTrips(20_000);
        postgresTrips = rawPostgres(5_000);
    }

    private String[] newSessions(int count) {
        return IntStream.range(0, count).mapToObj(s -> newSession()).toArray(String[]::new);
    }

    private void overheadAtOneClient(String[] ids, int steps) throws Exception {
        int sessions = ids.length;
        double[] phases = phaseTotals();
        double[] earlyPhases = new double[3];
        double[] latePhases = new double[3];
        long[][] bySession = new long[sessions][];
        long[][] cpuBySession = new long[sessions][];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long jitBefore = jit.getTotalCompilationTime();
        long aheadBefore = aheadCpu(threads);
        long[] jiffiesBefore = cpuJiffies();
        long cpu = 0;
        long[] countersBefore = threadCounters();
        for (int s = 0; s < sessions; s++) {
            String id = ids[s];
            bySession[s] = new long[steps];
            cpuBySession[s] = new long[steps];
            for (int i = 1; i <= steps; i++) {
                boolean windowed = i <= 20 || i > steps - 20;
                double[] phasesBefore = windowed ? phaseTotals() : null;
                long cpuStart = threads.getCurrentThreadCpuTime();
                long start = System.nanoTime();
                step(id, i);
                bySession[s][i - 1] = System.nanoTime() - start;
                if (windowed) {
                    double[] phasesAfter = phaseTotals();
                    double[] window = i <= 20 ? earlyPhases : latePhases;
                    for (int p = 0; p < 3; p++) {
                        window[p] += phasesAfter[p] - phasesBefore[p];
                    }
                }
                cpuBySession[s][i - 1] = threads.getCurrentThreadCpuTime() - cpuStart;
                cpu += cpuBySession[s][i - 1];
                betweenSteps();
            }
            store.delete(id);
        }
        long[] countersAfter = threadCounters();
        long aheadSpent = aheadCpu(threads) - aheadBefore;
        String cores = coreUse(jiffiesBefore, cpuJiffies());
        long[] all = Arrays.stream(bySession).flatMapToLong(Arrays::stream).toArray();
        Percentiles rawP = Percentiles.of(raw);
        Percentiles stepP = Percentiles.of(all);
        line("");
        line("== 1 client: %d sessions x %d steps", sessions, steps);
        line("between two steps the benchmark pauses 2 ms (untimed), as an application does between two calls (a");
        line("  user's message, a tool): the next block is rendered ahead meanwhile; the back-to-back pass below has");
        line("  no pause (quarkus.mnemos.injection.render-ahead; off: each step reads and renders alone)");
        line("raw Redis GET round trip : %s", rawP);
        line("  GET in a fault-tolerance timeout guard: %s  (each step call before; alternating with",
                Percentiles.of(guarded[0]));
        line("  plain GET, same rounds             : %s   plain GETs)", Percentiles.of(guarded[1]));
        line("  GET on a plain blocking socket  : %s  (no client, no thread hand-off: what a round trip",
                Percentiles.of(socket));
        line("                                     costs without the event loop between the caller and Redis)");
        line("raw Postgres SELECT 1    : %s", Percentiles.of(postgresTrips));
        line("step overhead            : %s  (target p50 <= 0.3 ms, p99 <= 1 ms)", stepP);
        line("ratio to raw round trip  : p50 %.1fx  p99 %.1fx", stepP.p50() / rawP.p50(), stepP.p99() / rawP.p99());
        line("  answer steps           : %s", Percentiles.of(steps(bySession, false)));
        line("  plan steps (every 10th): %s  (a new plan: written, folded into the summary, counted anew)",
                Percentiles.of(steps(bySession, true)));
        Percentiles early = Percentiles.of(window(bySession, 1, 20));
        Percentiles late = Percentiles.of(window(bySession, steps - 19, steps));
        double[] after = phaseTotals();
        line("mean per phase           : load %.3f ms, render %.3f ms, write %.3f ms (the write carries the trace; the rest: bookkeeping)",
                (after[0] - phases[0]) / all.length, (after[1] - phases[1]) / all.length, (after[2] - phases[2]) / all.length);
        line("CPU of the calling thread: mean %.3f ms per step (the rest of a step is waiting for Redis and thread hand-offs)",
                cpu / 1e6 / all.length);
        line("the calling thread's syscalls: %.2f reads, %.2f writes a step; context switches %.2f voluntary, %.2f involuntary",
                (countersAfter[0] - countersBefore[0]) / (double) all.length,
                (countersAfter[1] - countersBefore[1]) / (double) all.length,
                (countersAfter[2] - countersBefore[2]) / (double) all.length,
                (countersAfter[3] - countersBefore[3]) / (double) all.length);
        line("                           (from /proc: what a step asks of the kernel, the same however fast the machine is)");
        line("CPU rendering ahead      : mean %.3f ms per step, on Mnemos' render-ahead thread (not in the step's time;",
                aheadSpent / 1e6 / all.length);
        line("                           a step's whole CPU is the sum of the two lines above)");
        slowest(bySession, cpuBySession);
        line("the machine meanwhile    : %s (the pauses between steps included)", cores);
        line("JIT while measuring      : %d ms of compiler threads' time (on 2 cores it competes with the steps and Redis)",
                jit.getTotalCompilationTime() - jitBefore);
        line("SessionStore.get alone   : after 10 steps %s  (in the warm-up)", Percentiles.of(freshReads));
        line("                           after %d steps %s", steps, Percentiles.of(grownReads));
        line("mean per phase, steps 1-20: load %.3f ms, render %.3f ms, write %.3f ms; steps %d-%d: %.3f, %.3f, %.3f ms",
                earlyPhases[0] / (20.0 * sessions), earlyPhases[1] / (20.0 * sessions), earlyPhases[2] / (20.0 * sessions),
                steps - 19, steps, latePhases[0] / (20.0 * sessions), latePhases[1] / (20.0 * sessions),
                latePhases[2] / (20.0 * sessions));
        line("flat cost: p50 at steps 1-20 %.3f ms, at steps %d-%d %.3f ms -> late/early %.2fx (target <= 1.1x)", early.p50(),
                steps - 19, steps,
                late.p50(), late.p50() / early.p50());
    }

    /** The stand-in for what an application does between two steps: the next step's block is rendered ahead meanwhile. */
    private static void betweenSteps() {
        LockSupport.parkNanos(BETWEEN_STEPS_NANOS);
    }

    /**
     * {busy, steal, all} jiffies of every core so far, from /proc/stat ({0, 0, 0} where there is none):
     * steal is the time the hypervisor ran something else while this machine's cores had work.
     */
    private static long[] cpuJiffies() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long all = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) {
                all += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            long steal = Long.parseLong(f[8]);
            return new long[] { all - idle - steal, steal, all };
        } catch (IOException | RuntimeException e) {
            return new long[3];
        }
    }

    private static String coreUse(long[] before, long[] after) {
        double all = Math.max(1, after[2] - before[2]);
        return String.format("cores busy %.0f%%, stolen by the hypervisor %.1f%%", 100 * (after[0] - before[0]) / all,
                100 * (after[1] - before[1]) / all);
    }

    /** {collections, milliseconds} of every garbage collector so far. */
    private static long[] gcSoFar() {
        long[] sum = new long[2];
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum[0] += Math.max(0, gc.getCollectionCount());
            sum[1] += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }

    /** CPU time of Mnemos' render-ahead thread so far (0 before it started, or with render-ahead off). */
    private static long aheadCpu(ThreadMXBean threads) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("mnemos-render-ahead"))
                .mapToLong(t -> Math.max(0, threads.getThreadCpuTime(t.getId()))).sum();
    }

    /**
     * Steps at 1 client with no pause between them: a next step that comes before its block was rendered
     * ahead renders (and reads) as without render ahead, and the render ahead competes for the cores.
     */
    private void backToBack(String[] ids, int steps, int warmup, long modelNanos) throws Exception {
        int sessions = ids.length - warmup;
        for (int w = 0; w < warmup; w++) {
            chainedSession(ids[w], steps, new long[steps], new double[steps][], new long[steps], 0, modelNanos);
        }
        long[] nanos = new long[sessions * steps];
        double[][] phases = new double[sessions * steps][];
        long[] cpu = new long[sessions * steps];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] gcBefore = gcSoFar();
        MachineCpu machineBefore = MachineCpu.now();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long jitBefore = jit.getTotalCompilationTime();
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        long classesBefore = classes.getTotalLoadedClassCount();
        long[] jiffiesBefore = cpuJiffies();
        double[] aheadBefore = aheadOutcomes();
        long passStart = System.nanoTime();
        for (int s = 0; s < sessions; s++) {
            chainedSession(ids[warmup + s], steps, nanos, phases, cpu, s * steps, modelNanos);
        }
        double passSeconds = (System.nanoTime() - passStart) / 1e9;
        long[] gc = gcSoFar();
        String cores = coreUse(jiffiesBefore, cpuJiffies());
        long jitSpent = jit.getTotalCompilationTime() - jitBefore;
        long classesLoaded = classes.getTotalLoadedClassCount() - classesBefore;
        String busiest = MachineCpu.now().busiestSince(machineBefore, sessions * steps, 7);
        line("");
        if (modelNanos == 0) {
            line("== 1 client, back to back: %d sessions x %d steps, the next step at once (nothing between two calls),",
                    sessions, steps);
            line("   after %d sessions run the same way unmeasured", warmup);
        } else {
            line("== 1 client, back to back, the model answering in %.0f ms (-Dbench.modelMillis): %d sessions x %d steps",
                    modelNanos / 1e6, sessions, steps);
            line("   after %d session run the same way unmeasured (the next step at once, as above; the model's time is not",
                    warmup);
            line("   in the step's overhead: a chained agent whose model takes any time at all, the machine idle meanwhile)");
            line("GET on a plain socket, each after the same sleep: %s (without: %s);",
                    Percentiles.of(socketRoundTrips(200, modelNanos)), Percentiles.of(socket));
            line("   after a pause this machine runs the same work slower (the plain socket's GET, Redis's scripts): a step");
            line("   paced by a model starts with its code and data gone cold, which the passes above never do");
        }
        line("step overhead            : %s", Percentiles.of(nanos));
        line("CPU of the calling thread: mean %.3f ms a step", Arrays.stream(cpu).average().orElse(0) / 1e6);
        double[] aheadAfter = aheadOutcomes();
        double[] mean = IntStream.range(0, 3).mapToDouble(p -> Arrays.stream(phases).mapToDouble(step -> step[p]).average()
                .orElse(0)).toArray();
        line("mean per phase           : load %.3f ms, render %.3f ms, write %.3f ms; blocks found rendered ahead %d of %d",
                mean[0], mean[1], mean[2], Math.round(aheadAfter[0] - aheadBefore[0]),
                Math.round(aheadAfter[0] - aheadBefore[0] + aheadAfter[1] - aheadBefore[1]));
        slowestByKind(nanos, phases, cpu, steps);
        line("garbage collections      : %d in %.1f s, %d ms of pauses (each pause stops a step in flight)",
                gc[0] - gcBefore[0],
                passSeconds, gc[1] - gcBefore[1]);
        line("the machine meanwhile    : %s; the JIT's compiler threads %d ms in %.1f s (classes loaded: %d)", cores,
                jitSpent, passSeconds, classesLoaded);
        line("CPU by thread, ms a step : %s", busiest);
        line("                           (every process of the machine, from /proc: a step's own work is the calling");
        line("                           thread, the render-ahead thread and Redis; on 2 cores the others take turns with them)");
    }

    /** One session's steps back to back, their time, CPU and phases from {@code at} on; the session is deleted after. */
    private void chainedSession(String id, int steps, long[] nanos, double[][] phases, long[] cpu, int at,
            long modelNanos) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 1; i <= steps; i++, at++) {
            double[] before = phaseTotals();
            long cpuStart = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            long model = step(id, i, modelNanos);
            nanos[at] = System.nanoTime() - start - model;
            cpu[at] = threads.getCurrentThreadCpuTime() - cpuStart;
            phases[at] = phaseTotals();
            for (int p = 0; p < 3; p++) {
                phases[at][p] -= before[p];
            }
        }
        store.delete(id);
    }

    /** Which steps the slowest 1 % are (a plan step, the step after one, the others) and where their time went. */
    private void slowestByKind(long[] nanos, double[][] phases, long[] cpu, int steps) {
        Integer[] order = IntStream.range(0, nanos.length).boxed().sorted((a, b) -> Long.compare(nanos[b], nanos[a]))
                .toArray(Integer[]::new);
        int n = Math.max(1, nanos.length / 100);
        int[] kinds = new int[3];
        double[] sums = new double[5];
        int[] stalled = new int[2];
        for (int k = 0; k < n; k++) {
            int at = order[k];
            int step = at % steps + 1;
            kinds[step % 10 == 0 ? 0 : step % 10 == 1 ? 1 : 2]++;
            sums[0] += nanos[at] / 1e6;
            for (int p = 0; p < 3; p++) {
                sums[1 + p] += phases[at][p];
            }
            sums[4] += cpu[at] / 1e6;
            boolean idle = cpu[at] < 500_000;
            stalled[0] += idle && (phases[at][0] > 1 || phases[at][2] > 1) ? 1 : 0;
            stalled[1] += phases[at][1] > 1 ? 1 : 0;
        }
        line("slowest 1%% of steps      : %d plan steps, %d steps after a plan, %d others; mean %.3f ms: load %.3f, render %.3f,",
                kinds[0], kinds[1], kinds[2], sums[0] / n, sums[1] / n, sums[2] / n);
        line("                           write %.3f ms; the calling thread's CPU %.3f ms", sums[3] / n, sums[4] / n);
        line("                           %d of them spent over 1 ms in the load or the write (a Redis round trip each) with",
                stalled[0]);
        line("                           under 0.5 ms of the calling thread's CPU, %d over 1 ms in the render (waiting for",
                stalled[1]);
        line("                           its render ahead, or rendering without it)");
    }

    /** What the slowest 1 % of steps spent: the calling thread's CPU (own work) or waiting. */
    private void slowest(long[][] wall, long[][] cpu) {
        long[] all = Arrays.stream(wall).flatMapToLong(Arrays::stream).toArray();
        long[] cpus = Arrays.stream(cpu).flatMapToLong(Arrays::stream).toArray();
        Integer[] order = IntStream.range(0, all.length).boxed().sorted((a, b) -> Long.compare(all[b], all[a]))
                .toArray(Integer[]::new);
        int n = Math.max(1, all.length / 100);
        long wallSum = 0;
        long cpuSum = 0;
        for (int k = 0; k < n; k++) {
            wallSum += all[order[k]];
            cpuSum += cpus[order[k]];
        }
        line("slowest 1%% of steps      : mean %.3f ms, of which the calling thread's CPU %.3f ms (the rest: waiting)",
                wallSum / 1e6 / n, cpuSum / 1e6 / n);
    }

    private void overheadAtManyClients(int clients, int steps) throws Exception {
        long[] raw = rawRoundTrips(clients, 2_000);
        long[][] latencies = new long[clients][steps];
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch ready = new CountDownLatch(clients);
        List<Future<?>> work = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            // made here, one after the other: 64 clients adding 15 embedded facts each at once outran the Postgres pool
            String id = newSession();
            work.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                for (int i = 1; i <= steps; i++) {
                    long start = System.nanoTime();
                    step(id, i);
                    latencies[client][i - 1] = System.nanoTime() - start;
                }
                store.delete(id);
                return null;
            }));
        }
        ready.await(); // every session and profile exists before the clock starts
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long aheadBefore = aheadCpu(threads);
        long start = System.nanoTime();
        go.countDown();
        for (Future<?> f : work) {
            f.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        Percentiles rawP = Percentiles.of(raw);
        Percentiles stepP = Percentiles
                .of(Arrays.stream(latencies).flatMapToLong(Arrays::stream).toArray());
        line("");
        line("== %d clients: one session each, %d steps each (in-process, no HTTP; back to back: no wait for renders ahead)",
                clients, steps);
        line("raw Redis GET round trip : %s", rawP);
        line("step overhead            : %s", stepP);
        line("ratio to raw round trip  : p50 %.1fx  p99 %.1fx", stepP.p50() / rawP.p50(), stepP.p99() / rawP.p99());
        line("throughput               : %.0f steps/s", clients * (double) steps / seconds);
        line("rendering ahead took %.3f ms of CPU a step", (aheadCpu(threads) - aheadBefore) / 1e6 / (clients * steps));
    }

    /**
     * GETs each bounded by a SmallRye Fault Tolerance timeout, as the session store's step calls were,
     * in rounds alternating with plain GETs (so both see the same warm-up and noise).
     *
     * @return {guarded, plain}
     */
    private long[][] guardedRoundTrips(int rounds, int perRound) {
        String key = "mnemos:bench:" + SessionIds.newId();
        redis.value(String.class).set(key, "x".repeat(64));
        Guard guard = Guard.create()
                .withDescription("bench timeout").withTimeout().duration(3, ChronoUnit.SECONDS).done()
                .build();
        long[][] samples = new long[2][rounds * perRound];
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < perRound; i++) {
                long start = System.nanoTime();
                guard.get(() -> redis.value(String.class).get(key), String.class);
                samples[0][r * perRound + i] = System.nanoTime() - start;
                start = System.nanoTime();
                redis.value(String.class).get(key);
                samples[1][r * perRound + i] = System.nanoTime() - start;
            }
        }
        redis.key().del(key);
        return samples;
    }

    /** GETs written and read on a plain java.net.Socket by the calling thread (RESP by hand; a floor, not a client). */
    private long[] socketRoundTrips(int count) throws IOException {
        return socketRoundTrips(count, 0);
    }

    /** GETs on a plain blocking socket, each after {@code pauseNanos} of sleep (0: none). */
    private long[] socketRoundTrips(int count, long pauseNanos) throws IOException {
        String key = "mnemos:bench:" + SessionIds.newId();
        redis.value(String.class).set(key, "x".repeat(64));
        byte[] get = ("*2\r\n$3\r\nGET\r\n$" + key.length() + "\r\n" + key + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        long[] samples = new long[count];
        URI redisUri = URI.create(ConfigProvider.getConfig()
                .getValue("quarkus.redis.hosts", String.class).split(",")[0]);
        try (Socket socket = new Socket(redisUri.getHost(), redisUri.getPort())) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            byte[] reply = new byte[5 + 64 + 2]; // "$64\r\n", the value, "\r\n"
            for (int i = 0; i < count; i++) {
                if (pauseNanos > 0) {
                    LockSupport.parkNanos(pauseNanos);
                }
                long start = System.nanoTime();
                out.write(get);
                out.flush();
                for (int read = 0; read < reply.length;) {
                    read += in.read(reply, read, reply.length - read);
                }
                samples[i] = System.nanoTime() - start;
            }
        } finally {
            redis.key().del(key);
        }
        return samples;
    }

    private long[] rawRoundTrips(int clients, int perClient) throws Exception {
        String key = "mnemos:bench:" + SessionIds.newId();
        redis.value(String.class).set(key, "x".repeat(64));
        long[][] samples = new long[clients][perClient];
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> work = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            work.add(pool.submit(() -> {
                for (int i = 0; i < perClient; i++) {
                    long start = System.nanoTime();
                    redis.value(String.class).get(key);
                    samples[client][i] = System.nanoTime() - start;
                }
                return null;
            }));
        }
        for (Future<?> f : work) {
            f.get();
        }
        pool.shutdown();
        redis.key().del(key);
        return Arrays.stream(samples).flatMapToLong(Arrays::stream).toArray();
    }

    private long[] rawPostgres(int n) throws Exception {
        long[] nanos = new long[n];
        try (Connection c = postgres.getConnection(); var select = c.prepareStatement("SELECT 1")) {
            for (int i = 0; i < n; i++) {
                long start = System.nanoTime();
                try (var r = select.executeQuery()) {
                    r.next();
                }
                nanos[i] = System.nanoTime() - start;
            }
        }
        return nanos;
    }

    private void step(String id, int i) throws Exception {
        step(id, i, 0);
    }

    /**
     * A step whose model answers after {@code modelNanos} (0: at once). @return how long the model took (0 when
     * it answered at once), which the caller takes out of the step's time
     */
    private long step(String id, int i, long modelNanos) throws Exception {
        AiMethod method = BenchWorkload.planStep(i) ? plan : answer;
        String result = BenchWorkload.answer(id, i);
        if (modelNanos == 0) {
            run(owners.get(id), method, new Object[] { id, "step " + i + ": what is next?" }, () -> result);
            return 0;
        }
        long[] took = new long[1];
        run(owners.get(id), method, new Object[] { id, "step " + i + ": what is next?" }, () -> {
            long start = System.nanoTime();
            LockSupport.parkNanos(modelNanos);
            took[0] = System.nanoTime() - start;
            return result;
        });
        return took[0];
    }

    /**
     * A session of a new user whose 15 profile facts are stored in Postgres, so every step reads the
     * profile the way an application's steps do (revision check, cached facts); with
     * {@code -Dbench.profile=memory} they come from the scripted source instead.
     */
    private String newSession() {
        String user = "bench-" + SessionIds.newId();
        if (PROFILE_IN_MEMORY) {
            profiles.set(user, IntStream.rangeClosed(1, BenchWorkload.FACTS).mapToObj(i -> new ProfileLine("f" + i,
                    "PREFERENCE", null, BenchWorkload.fact(i), BenchWorkload.confidence(i))).toList());
        } else {
            IntStream.rangeClosed(1, BenchWorkload.FACTS).forEach(i -> profileService.add(user, "bench",
                    new NewFact(Category.PREFERENCE, null, BenchWorkload.fact(i), BenchWorkload.confidence(i))));
        }
        String id = store.create(NewSession.of(user, BenchWorkload.start()).by("bench")).sessionId();
        owners.put(id, user);
        return id;
    }

    /** A step of {@code user}'s session, named as the user it acts for (the benchmark's threads carry no request). */
    private Object run(String user, AiMethod method, Object[] args, Callable<Object> model) {
        return ActingAs.user(user).call(() -> {
            try {
                return cycle.run(method, args, model);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private long[] reads(String id, int count) {
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            store.get(id);
            nanos[i] = System.nanoTime() - start;
        }
        return nanos;
    }

    /** Steps so far whose block was found rendered ahead, and those that rendered their own: {used, unused}. */
    private double[] aheadOutcomes() {
        return Stream.of("used", "unused")
                .mapToDouble(o -> meters.counter("mnemos.block.rendered.ahead", "outcome", o).count()).toArray();
    }

    private double[] phaseTotals() {
        return Stream.of("load", "render", "write")
                .mapToDouble(p -> meters.timer("mnemos.injection." + p).totalTime(TimeUnit.MILLISECONDS))
                .toArray();
    }

    /** The latencies of the plan steps (every 10th) or of the others. */
    private static long[] steps(long[][] bySession, boolean plans) {
        return Arrays.stream(bySession).flatMapToLong(s -> IntStream.range(0, s.length)
                .filter(i -> ((i + 1) % 10 == 0) == plans).mapToLong(i -> s[i])).toArray();
    }

    private static long[] window(long[][] bySession, int from, int to) {
        return Arrays.stream(bySession).flatMapToLong(s -> Arrays.stream(s, from - 1, to)).toArray();
    }

    private void locomo(File file) throws Exception {
        if (!file.exists()) {
            line("");
            line("== LoCoMo: %s not found; skipped (set -Dbench.locomo)", file);
            return;
        }
        AiMethod turn = AiMethod.of(BenchSteps.class.getMethod("turn", String.class, String.class));
        LocomoStats stats = new LocomoStats();
        for (LocomoReplay.Conversation conversation : LocomoReplay.read(file)) {
            replay(conversation, turn, stats);
        }
        line("");
        line("== LoCoMo replay (%s): each conversation a user, each session a task, each turn a step; budget %d tokens",
                file.getName(), config.tokenBudget());
        stats.print(this::line);
    }

    private void replay(LocomoReplay.Conversation conversation, AiMethod turn, LocomoStats stats) throws Exception {
        String user = "locomo-" + conversation.id() + "-" + SessionIds.newId();
        List<ProfileLine> profile = new ArrayList<>();
        int conversationTokens = 0;
        for (LocomoReplay.Task task : conversation.tasks()) {
            profiles.set(user, profile.subList(Math.max(0, profile.size() - 50), profile.size()));
            String id = store.create(NewSession.of(user, SessionPatch.builder()
                    .goal("conversation between " + conversation.speakerA() + " and " + conversation.speakerB()
                            + ", session " + task.index())
                    .context(task.date()).build()).by("bench")).sessionId();
            int sessionTokens = 0;
            for (int i = 0; i < task.turns().size(); i++) {
                String line = task.turns().get(i).line();
                String[] injected = new String[1];
                run(user, turn, new Object[] { id, line }, () -> {
                    injected[0] = memory.block();
                    return "ok";
                });
                stats.add(task.index(), i + 1, TokenEstimator.estimate(injected[0]), sessionTokens, conversationTokens);
                int tokens = TokenEstimator.estimate(line + "\n");
                sessionTokens += tokens;
                conversationTokens += tokens;
            }
            task.observations().forEach(o -> profile.add(new ProfileLine(null, "FACT", null, o, 0.8)));
            store.delete(id);
        }
    }

    private void line(String format, Object... args) {
        String text = String.format(format, args);
        report.append(text).append('\n');
        System.out.println("bench| " + text); // as it comes: a pass that fails later leaves the figures before it
    }


    /**
     * {read-like syscalls, write-like syscalls, voluntary, involuntary context switches} of the calling thread so far,
     * from /proc ({0, 0, 0, 0} where there is none): what a step asks of the kernel, which the machine's speed does
     * not change.
     */
    private static long[] threadCounters() {
        long[] counters = new long[4];
        try {
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/io"))) {
                counters[0] = line.startsWith("syscr:") ? Long.parseLong(line.substring(6).trim()) : counters[0];
                counters[1] = line.startsWith("syscw:") ? Long.parseLong(line.substring(6).trim()) : counters[1];
            }
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
                counters[2] = line.startsWith("voluntary_ctxt_switches:") ? Long.parseLong(line.substring(24).trim())
                        : counters[2];
                counters[3] = line.startsWith("nonvoluntary_ctxt_switches:") ? Long.parseLong(line.substring(27).trim())
                        : counters[3];
            }
        } catch (IOException | RuntimeException e) {
            return new long[4];
        }
        return counters;
    }

}
