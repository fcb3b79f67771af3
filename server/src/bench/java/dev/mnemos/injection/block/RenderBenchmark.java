package dev.mnemos.injection.block;

import dev.langchain4j.model.openai.OpenAiChatModelName;
import dev.langchain4j.model.openai.OpenAiTokenCountEstimator;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TokenCounter;
import dev.mnemos.session.Constraint;
import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.StepPointer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * The memory block's rendering alone, on one thread, no stores and no Quarkus (so the JIT settles
 * on it alone): the calling thread's CPU per block, and how much text the tokenizer (jtokkit, as the
 * server counts) had to read, for the states of the injection benchmark's workload — a new collected
 * value every step, a new plan and a longer summary every 10th, 15 profile facts, each field a fresh
 * string as if read from Redis; each round renders the workload without the session's render memo, then
 * with it (as a step does). Run with {@code mvn -Pbench test}; prints figures, asserts none; also
 * written to {@code target/bench/render.txt}. Sizes: {@code -Dbench.renders=20000 -Dbench.rounds=8}.
 */
class RenderBenchmark {

    private static final String ANSWER = "Day 1: Fushimi Inari at dawn, then Tofuku-ji. ".repeat(6);
    private static final String PLAN = "1. Arrive at Kyoto station and leave luggage.\n2. Visit the temples of the east.\n"
            .repeat(10);
    private static final String FOLDED = ": plan of 20 lines, arrival, temples of the east, Nara on day three. ";

    /**
     * The rolling summary after each number of plans: a folded plan every 10th step, the oldest part
     * cut past 4,000 characters (made once: building it is not what is measured).
     */
    private static final List<String> SUMMARIES = IntStream.range(0, 100_000 / 10 + 2).mapToObj(plans -> {
        StringBuilder summary = new StringBuilder();
        for (int v = Math.max(1, plans - 60); v < plans - 1; v++) {
            summary.append("v").append(v).append(FOLDED);
        }
        return summary.length() > 4000 ? "…" + summary.substring(summary.length() - 3999) : summary.toString();
    }).toList();

    private final TokenCounter tokenizer = TokenCounter.of(new OpenAiTokenCountEstimator(OpenAiChatModelName.GPT_4_O_MINI));
    private long counted;
    private long countedChars;

    @Test
    void run() throws Exception {
        TokenCounter tokens = TokenCounter.remembering(text -> {
            counted++;
            countedChars += text.length();
            return tokenizer.count(text);
        }, 4_000_000);
        MemoryBlockRenderer renderer = new MemoryBlockRenderer(1000, 2, 20, tokens);
        List<ProfileLine> profile = IntStream.rangeClosed(1, 15).mapToObj(i -> new ProfileLine("f" + i, "PREFERENCE", null,
                "prefers option " + i + " when travelling in Japan", 0.5 + i / 40.0)).toList();
        int renders = Math.min(100_000, Integer.getInteger("bench.renders", 20_000));
        int rounds = Integer.getInteger("bench.rounds", 8);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        StringBuilder report = new StringBuilder(String.format(
                "Mnemos memory-block rendering (one thread, jtokkit counts remembered; %d blocks a round; budget 1,000 tokens)%n",
                renders));
        long chars = 0;
        for (int round = 1; round <= rounds; round++) {
            // alternately without the session's memo (every render starts from the shared remembered counts)
            // and with it, as a step renders (what the session's previous render counted, quoted and cut)
            for (boolean withMemo : new boolean[] { false, true }) {
                counted = 0;
                countedChars = 0;
                RenderMemo memo = RenderMemo.EMPTY;
                long cpu = threads.getCurrentThreadCpuTime();
                for (int step = 1; step <= renders; step++) {
                    MemoryBlockRenderer.Rendered rendered = renderer.render(state(step), profile, List.of(),
                            "step " + step + ": what is next?", withMemo ? memo : RenderMemo.EMPTY);
                    memo = rendered.memo();
                    chars += rendered.block().text().length();
                }
                cpu = threads.getCurrentThreadCpuTime() - cpu;
                report.append(String.format(
                        "round %d%s, %s: %6.1f us of CPU a block; tokenizer called %.2f times a block on %.0f characters%n",
                        round, round <= rounds / 2 ? " (warm-up)" : "", withMemo ? "session memo   " : "no session memo",
                        cpu / 1e3 / renders, counted / (double) renders, countedChars / (double) renders));
            }
        }
        report.append(String.format("(%d characters rendered in all)%n", chars));
        Path out = Path.of("target/bench/render.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println("\n" + report);
    }

    /** The session after {@code step} steps of the workload, every field a new string. */
    private static SessionState state(int step) {
        int plans = step / 10 + 1;
        List<PlanVersion> newest = List.of(
                new PlanVersion(plans - 1, new String(PLAN + "(v" + (plans - 1) + ")"), null, null, Instant.EPOCH),
                new PlanVersion(plans, new String(PLAN + "(v" + plans + ")"), null, null, Instant.EPOCH));
        Map<String, String> collected = new TreeMap<>();
        collected.put("answer", ANSWER + step);
        collected.put("topic", new String("kyoto temples"));
        List<Constraint> constraints = new ArrayList<>();
        for (int c = 1; c <= 5; c++) {
            constraints.add(new Constraint("c" + c, new String("constraint " + c + " of the trip"), Scope.TASK, "user"));
        }
        String folded = new String(SUMMARIES.get(plans));
        return new SessionState("sess-123456", "u", step, Instant.EPOCH, Instant.EPOCH, SessionState.Status.ACTIVE,
                new String("plan a 5-day trip to Kyoto and Nara in April"), new String("two adults, first visit"),
                constraints, List.of(), collected, new StepPointer(step, "answer"), newest, List.of(), folded, null);
    }
}
