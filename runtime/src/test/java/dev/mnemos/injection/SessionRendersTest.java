package dev.mnemos.injection;

import dev.mnemos.session.SessionState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class SessionRendersTest {

    /** One token per word; every text it counts is recorded with the thread that asked. */
    private final ConcurrentLinkedQueue<String> counted = new ConcurrentLinkedQueue<>();
    /** While set, the render-ahead thread stops at the first text it counts until this is counted down. */
    private volatile CountDownLatch holdAhead;
    /** Counted down when the render-ahead thread stops at {@link #holdAhead}. */
    private final CountDownLatch heldAhead = new CountDownLatch(1);
    private final TokenCounter words = text -> {
        CountDownLatch hold = holdAhead;
        if (hold != null && Thread.currentThread().getName().equals("mnemos-render-ahead")) {
            heldAhead.countDown();
            await(hold);
        }
        counted.add(Thread.currentThread().getName() + ": " + text);
        return text.isBlank() ? 0 : text.trim().split("\\s+").length;
    };
    private final MemoryBlockRenderer renderer = new MemoryBlockRenderer(1000, 2, 20, words);
    private final SessionRenders renders = new SessionRenders(renderer, 4_000_000, true, 3, Duration.ofSeconds(5));
    private final List<ProfileLine> profile = IntStream.rangeClosed(1, 15)
            .mapToObj(i -> new ProfileLine("f" + i, "PREFERENCE", null, "prefers option " + i + " in Japan", 0.5 + i / 40.0))
            .toList();

    @AfterEach
    void close() {
        renders.close();
    }

    @Test
    void aStepRenderedAheadCountsNothingItselfAndGetsTheBlockARenderWithoutMemoGives() {
        String thread = Thread.currentThread().getName();
        int countedByTheSteps = 0;
        for (int step = 1; step <= 120; step++) {
            SessionState s = GrowingSessions.state(step);
            String message = "step " + step + ": what is next?";
            counted.clear();

            SessionRenders.Block block = renders.render("s-ahead", s, profile, List.of(), message);
            if (step > 1) {
                countedByTheSteps += (int) counted.stream().filter(c -> c.startsWith(thread + ": ")).count();
            }

            MemoryBlock fresh = renderer.render(s, profile, List.of(), message);
            assertThat(block.block()).as("step %d", step).isEqualTo(fresh);
            assertThat(block.sha256()).as("step %d", step).isEqualTo(fresh.sha256());
            SessionState next = GrowingSessions.state(step + 1);
            renders.renderAhead("s-ahead", next, profile, message);
            assertThat(renders.awaitAhead(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(countedByTheSteps).as("texts the steps after the first counted themselves").isZero();
        SessionRenders.Block last = renders.render("s-ahead", GrowingSessions.state(121), profile, List.of(), "step 121");
        assertThat(last.renderedAhead()).isTrue();
        assertThat(counted).as("the changed lines were counted ahead").anyMatch(c -> c.startsWith("mnemos-render-ahead: "));
    }

    @Test
    void aGuessThatMissedAConcurrentChangeStillGivesTheBlockOfTheStateRead() {
        renders.render("s-guess", GrowingSessions.state(40), profile, List.of(), null);
        renders.renderAhead("s-guess", GrowingSessions.state(41), profile, null);
        assertThat(renders.awaitAhead(Duration.ofSeconds(5))).isTrue();
        // another writer came in between: the state read is not the one rendered ahead
        Map<String, String> collected = new TreeMap<>(GrowingSessions.state(41).collected());
        collected.put("hotel", "a ryokan near Gion, booked by someone else");
        SessionState read = GrowingSessions.withCollected(GrowingSessions.state(41), collected);
        counted.clear();

        SessionRenders.Block block = renders.render("s-guess", read, profile, List.of(), null);
        List<String> countedByTheStep = List.copyOf(counted);

        assertThat(countedByTheStep).as("only the line of the change nobody foresaw (and its label, to decide on a cut)")
                .hasSize(2).allMatch(c -> c.contains("\"hotel\": ")).anyMatch(c -> c.contains("ryokan"));
        assertThat(block.block()).isEqualTo(renderer.render(read, profile, List.of(), null));
        assertThat(block.sha256()).isEqualTo(block.block().sha256());
    }

    @Test
    void theStateAStepWroteIsKnownAtOnceWithThePlansAReadGives() {
        renders.render("s-known", GrowingSessions.state(40), profile, List.of(), null);
        SessionState written = GrowingSessions.state(41);
        SessionState withOneMore = new SessionState(written.sessionId(), written.userId(), written.version(),
                written.createdAt(), written.updatedAt(), written.status(), written.goal(), written.context(),
                written.constraints(), written.openQuestions(), written.collected(), written.stepPointer(),
                java.util.stream.Stream.concat(GrowingSessions.state(30).plans().stream(), written.plans().stream()).toList(),
                written.observations(), written.summary(), written.forkedFrom());
        holdAhead = new CountDownLatch(1);
        try {
            renders.renderAhead("s-known", withOneMore, profile, null);

            assertThat(withOneMore.plans()).hasSize(4);
            assertThat(renders.known("s-known")).as("known before its block is rendered")
                    .isEqualTo(withOneMore.newestPlans(3));
        } finally {
            holdAhead.countDown();
        }
        assertThat(renders.awaitAhead(Duration.ofSeconds(5))).isTrue();
        renders.renderAhead("s-known", null, profile, null);
        assertThat(renders.known("s-known")).as("a write whose state could not be rebuilt").isNull();
    }

    @Test
    void aStepThatComesAtOnceRendersItsRenderAheadItselfWhileItsReadIsOnTheWayAndOnlyOnce() {
        String thread = Thread.currentThread().getName();
        renders.render("s-over", GrowingSessions.state(1), profile, List.of(), "what next?");
        int takenOver = 0;
        for (int step = 2; step <= 60; step++) {
            SessionState s = GrowingSessions.state(step);
            counted.clear();
            renders.renderAhead("s-over", s, profile, "what next?");
            renders.takeOver("s-over"); // what the step's read runs once it is sent
            assertThat(renders.awaitAhead(Duration.ofSeconds(5))).isTrue();
            long byStep = counted.stream().filter(c -> c.startsWith(thread + ": ")).count();
            long byAhead = counted.stream().filter(c -> c.startsWith("mnemos-render-ahead: ")).count();
            assertThat(byStep + byAhead).as("step %d: what changed was counted", step).isPositive();
            assertThat(byStep == 0 || byAhead == 0).as("step %d: by one thread only", step).isTrue();
            takenOver += byStep > 0 ? 1 : 0;

            counted.clear();
            SessionRenders.Block block = renders.render("s-over", s, profile, List.of(), "what next?");
            assertThat(block.renderedAhead()).as("step %d", step).isTrue();
            assertThat(counted).as("step %d: counted by the step's render", step).isEmpty();
            assertThat(block.block()).isEqualTo(renderer.render(s, profile, List.of(), "what next?"));
        }
        assertThat(takenOver).as("renders ahead the step took over (the thread leaves them a grace)").isGreaterThan(30);
        assertThat(renders.pendingAhead()).as("each render ahead ran once").isZero();
        renders.takeOver("s-over");
        assertThat(renders.pendingAhead()).as("nothing left to take over").isZero();
    }

    @Test
    void aStepWaitsForTheRenderAheadOfItsBlockWhenThatIsRunning() throws Exception {
        renders.render("s-wait", GrowingSessions.state(40), profile, List.of(), null);
        CountDownLatch hold = new CountDownLatch(1);
        holdAhead = hold;
        renders.renderAhead("s-wait", GrowingSessions.state(41), profile, null);
        assertThat(heldAhead.await(5, TimeUnit.SECONDS)).as("the render ahead is running").isTrue();
        new Thread(() -> {
            sleep(100);
            hold.countDown();
        }).start();
        counted.clear();

        SessionRenders.Block block = renders.render("s-wait", GrowingSessions.state(41), profile, List.of(), null);

        assertThat(block.renderedAhead()).as("the step waited for its block").isTrue();
        assertThat(counted).as("counted by the step itself")
                .noneMatch(c -> c.startsWith(Thread.currentThread().getName() + ": "));
        assertThat(block.block()).isEqualTo(renderer.render(GrowingSessions.state(41), profile, List.of(), null));
    }

    @Test
    void aRenderAheadThatComesAfterItsStepLeavesTheStepsRender() {
        renders.render("s-late", GrowingSessions.state(40), profile, List.of(), null);
        CountDownLatch hold = new CountDownLatch(1);
        holdAhead = hold;
        // another session's render ahead holds the thread, so the one of s-late waits in the queue
        renders.renderAhead("s-other", GrowingSessions.state(12), profile, null);
        renders.renderAhead("s-late", GrowingSessions.state(41), profile, null);
        SessionRenders.Block step = renders.render("s-late", GrowingSessions.state(41), profile, List.of(), null);
        holdAhead = null;
        hold.countDown();
        assertThat(renders.awaitAhead(Duration.ofSeconds(5))).isTrue();
        counted.clear();

        SessionRenders.Block again = renders.render("s-late", GrowingSessions.state(41), profile, List.of(), null);

        assertThat(step.renderedAhead()).as("the step came first").isFalse();
        assertThat(counted).as("the step's memo was kept: the same state counts nothing").isEmpty();
        assertThat(again).as("the step's own render, not one made ahead").isEqualTo(step);
    }

    @Test
    void renderingAheadAgesNothing() {
        SessionState with = GrowingSessions.state(40);
        SessionState without = GrowingSessions.withCollected(with, Map.of());
        RenderMemo memo = renderer.render(with, profile, List.of(), null, RenderMemo.EMPTY).memo();
        for (int i = 0; i < RenderMemo.KEPT_RENDERS - 2; i++) {
            // a step, and a render ahead of the next one: together they count as one render
            memo = renderer.render(without, profile, List.of(), null, memo.use()).memo();
            memo = renderer.render(without, profile, List.of(), null, memo.useAhead()).memo();
        }
        counted.clear();

        renderer.render(with, profile, List.of(), null, memo);

        assertThat(counted).as("the collected lines of %d steps ago", RenderMemo.KEPT_RENDERS - 1).isEmpty();
    }

    @Test
    void aStepWhoseMessageOrdersTheFactsOtherwiseGetsItsOwnBlockNotTheOneRenderedAhead() {
        List<ProfileLine> facts = java.util.stream.Stream.concat(profile.stream(),
                java.util.stream.Stream.of(new ProfileLine("f-ryokan", "PREFERENCE", null, "sleeps best in a ryokan", 0.3)))
                .toList();
        renders.render("s-order", GrowingSessions.state(40), facts, List.of(), "step 40: what is next?");
        renders.renderAhead("s-order", GrowingSessions.state(41), facts, "step 40: what is next?");
        assertThat(renders.awaitAhead(Duration.ofSeconds(5))).isTrue();
        String message = "which ryokan should we book?";

        SessionRenders.Block block = renders.render("s-order", GrowingSessions.state(41), facts, List.of(), message);

        MemoryBlock fresh = renderer.render(GrowingSessions.state(41), facts, List.of(), message);
        assertThat(block.block()).isEqualTo(fresh);
        assertThat(block.renderedAhead()).isFalse();
        assertThat(fresh.text()).as("the fact the message names comes first")
                .isNotEqualTo(renderer.render(GrowingSessions.state(41), facts, List.of(), "step 40: what is next?").text())
                .contains(
                        "user profile (background; the task and this session win over it):\n- [PREFERENCE, confidence 0.30] \"sleeps best in a ryokan\"");
    }

    @Test
    void aStepWithOverridesGetsThemInItsBlockThoughTheRestWasRenderedAhead() {
        renders.render("s-override", GrowingSessions.state(40), profile, List.of(), null);
        renders.renderAhead("s-override", GrowingSessions.state(41), profile, null);
        assertThat(renders.awaitAhead(Duration.ofSeconds(5))).isTrue();
        List<TurnOverride> overrides = List.of(new TurnOverride("language", "English", "Chinese"));

        SessionRenders.Block block = renders.render("s-override", GrowingSessions.state(41), profile, overrides, null);

        assertThat(block.block()).isEqualTo(renderer.render(GrowingSessions.state(41), profile, overrides, null));
        assertThat(block.block().text()).contains("\"language\": \"English\" (profile says \"Chinese\")");
        assertThat(block.renderedAhead()).isFalse();
    }

    @Test
    void aStepGivenAnEqualStateOfAnotherVersionGetsItsOwnBlock() {
        renders.render("s-version", GrowingSessions.state(40), profile, List.of(), null);
        renders.renderAhead("s-version", GrowingSessions.state(41), profile, null);
        assertThat(renders.awaitAhead(Duration.ofSeconds(5))).isTrue();
        SessionState other = GrowingSessions.state(41);
        SessionState read = new SessionState(other.sessionId(), other.userId(), 42, other.createdAt(), other.updatedAt(),
                other.status(), other.goal(), other.context(), other.constraints(), other.openQuestions(), other.collected(),
                other.stepPointer(), other.plans(), other.observations(), other.summary(), other.forkedFrom());

        SessionRenders.Block block = renders.render("s-version", read, profile, List.of(), null);

        assertThat(block.block().text()).contains("version 42").doesNotContain("version 41");
        assertThat(block.block()).isEqualTo(renderer.render(read, profile, List.of(), null));
    }

    @Test
    void stepsShownBlocksRenderedAheadForgetWhatTheirOwnRendersWould() {
        String id = "s-forget";
        SessionState with = GrowingSessions.state(40);
        SessionState without = GrowingSessions.withCollected(with, Map.of());
        renders.render(id, with, profile, List.of(), null);
        // steps of a state without the collected lines, each shown the block rendered ahead of it
        for (int i = 1; i <= RenderMemo.KEPT_RENDERS; i++) {
            SessionState next = GrowingSessions.withCollected(GrowingSessions.state(40 + i), Map.of());
            renders.renderAhead(id, next, profile, null);
            assertThat(renders.awaitAhead(Duration.ofSeconds(5))).isTrue();
            assertThat(renders.render(id, next, profile, List.of(), null).renderedAhead()).isTrue();
        }
        assertThat(without.collected()).isEmpty();
        counted.clear();

        renders.render(id, GrowingSessions.withCollected(GrowingSessions.state(50), with.collected()), profile, List.of(),
                null);

        assertThat(counted).as("the collected lines of %d steps ago, forgotten as a step's own renders forget them",
                RenderMemo.KEPT_RENDERS).anyMatch(c -> c.contains("\"answer.40\": "));
    }

    @Test
    void aMemoAgedAsAStepsOwnRenderHoldsWhatThatRenderWouldLeave() {
        SessionState with = GrowingSessions.state(40);
        SessionState without = GrowingSessions.withCollected(GrowingSessions.state(41), Map.of());
        RenderMemo stepBefore = renderer.render(with, profile, List.of(), null, RenderMemo.EMPTY).memo();

        RenderMemo aged = renderer.render(without, profile, List.of(), null, stepBefore.useAhead()).memo().aged();
        RenderMemo own = renderer.render(without, profile, List.of(), null, stepBefore.use()).memo();

        assertThat(aged.size()).isEqualTo(own.size());
        assertThat(aged.chars()).isEqualTo(own.chars());
    }

    @Test
    void withoutRenderAheadEachStepCountsWhatChanged() {
        try (SessionRenders off = new SessionRenders(renderer, 4_000_000, false, 3, Duration.ofSeconds(5))) {
            off.render("s-off", GrowingSessions.state(40), profile, List.of(), null);
            off.renderAhead("s-off", GrowingSessions.state(41), profile, null);
            assertThat(off.known("s-off")).as("no state kept without render ahead").isNull();
            assertThat(off.awaitAhead(Duration.ofSeconds(1))).isTrue();
            counted.clear();

            off.render("s-off", GrowingSessions.state(41), profile, List.of(), null);

            assertThat(counted).as("the changed lines, counted by the step").isNotEmpty()
                    .allMatch(c -> c.startsWith(Thread.currentThread().getName() + ": "));
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(5, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

}
