package dev.mnemos.injection.block;

import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TokenCounter;
import dev.mnemos.injection.TurnOverride;
import dev.mnemos.session.SessionState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class AheadStepBlocksTest {

    /** One token per word; every text it counts is recorded with the thread that asked. */
    private final ConcurrentLinkedQueue<String> counted = new ConcurrentLinkedQueue<>();
    /** Released to let the render-ahead thread go on past a text with "hold-the-thread" in it. */
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch held = new CountDownLatch(1);
    private final TokenCounter words = text -> {
        counted.add(Thread.currentThread().getName() + ": " + text);
        if (text.contains("hold-the-thread")) {
            held.countDown();
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return text.isBlank() ? 0 : text.trim().split("\\s+").length;
    };
    private final MemoryBlockRenderer renderer = new MemoryBlockRenderer(1000, 2, 20, words);
    private final MemoStepBlocks memo = new MemoStepBlocks(renderer, 4_000_000);
    private final AheadStepBlocks blocks = new AheadStepBlocks(memo);
    private final List<ProfileLine> profile = IntStream.rangeClosed(1, 15)
            .mapToObj(i -> new ProfileLine("f" + i, "PREFERENCE", null, "prefers option " + i + " in Japan", 0.5 + i / 40.0))
            .toList();

    @AfterEach
    void close() {
        release.countDown();
        blocks.close();
    }

    @Test
    void aRenderAheadTheThreadHasNotStartedRunsOnTheStepsThreadWhileItsReadIsOnItsWay() throws Exception {
        String thread = Thread.currentThread().getName();
        // the render-ahead thread is busy with another session
        blocks.written("s-busy", GrowingSessions.withCollected(GrowingSessions.state(5), Map.of("x", "hold-the-thread")),
                profile, null);
        assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();
        blocks.render("s-next", GrowingSessions.state(40), profile, List.of(), null);
        blocks.written("s-next", GrowingSessions.state(41), profile, null);
        counted.clear();

        blocks.whileReading("s-next");

        assertThat(counted).as("rendered here").anyMatch(c -> c.startsWith(thread + ": "));
        counted.clear();
        StepBlocks.Block rendered = blocks.render("s-next", GrowingSessions.state(41), profile, List.of(), null);
        assertThat(rendered.ahead()).isEqualTo(StepBlocks.Ahead.FOUND);
        assertThat(counted).as("nothing counted by the step's render").isEmpty();
        assertThat(rendered.block().text())
                .isEqualTo(renderer.render(GrowingSessions.state(41), profile, List.of(), null).text());
        assertThat(rendered.sha256()).isEqualTo(rendered.block().sha256());
        counted.clear();
        release.countDown();
        blocks.written("s-other", GrowingSessions.state(12), profile, null);
        awaitRenderedAhead("s-other", 12);
        assertThat(counted).as("the thread did not render it again").noneMatch(c -> c.contains("version 41"));
    }

    @Test
    void aStepRenderedAheadCountsNothingItselfAndGetsTheBlockAPlainRenderGives() {
        String thread = Thread.currentThread().getName();
        int countedByTheSteps = 0;
        for (int step = 1; step <= 120; step++) {
            SessionState s = GrowingSessions.state(step);
            String message = "step " + step + ": what is next?";
            counted.clear();

            StepBlocks.Block rendered = blocks.render("s-ahead", s, profile, List.of(), message);
            MemoryBlock block = rendered.block();
            assertThat(rendered.ahead()).isEqualTo(step == 1 ? StepBlocks.Ahead.NOT_FOUND : StepBlocks.Ahead.FOUND);
            if (step > 1) {
                countedByTheSteps += (int) counted.stream().filter(c -> c.startsWith(thread + ": ")).count();
            }

            assertThat(block.text()).as("step %d", step).isEqualTo(renderer.render(s, profile, List.of(), message).text());
            blocks.written("s-ahead", GrowingSessions.state(step + 1), profile, message);
            awaitRenderedAhead("s-ahead", step + 1);
        }
        assertThat(countedByTheSteps).as("texts the steps counted themselves").isZero();
    }

    @Test
    void aGuessThatMissedAChangeStillGivesTheBlockOfTheStateRead() {
        blocks.render("s-guess", GrowingSessions.state(40), profile, List.of(), null);
        blocks.written("s-guess", GrowingSessions.state(41), profile, null);
        awaitRenderedAhead("s-guess", 41);
        SessionState changed = GrowingSessions.withCollected(GrowingSessions.state(41), Map.of("hotel", "ryokan"));

        StepBlocks.Block rendered = blocks.render("s-guess", changed, profile, List.of(), null);
        MemoryBlock block = rendered.block();
        assertThat(rendered.ahead()).isEqualTo(StepBlocks.Ahead.NOT_FOUND);

        assertThat(block.text()).isEqualTo(renderer.render(changed, profile, List.of(), null).text()).contains("ryokan");
    }

    @Test
    void aStepWithOverridesGetsThemInItsBlockThoughTheRestWasRenderedAhead() {
        blocks.render("s-override", GrowingSessions.state(40), profile, List.of(), null);
        blocks.written("s-override", GrowingSessions.state(41), profile, null);
        awaitRenderedAhead("s-override", 41);
        List<TurnOverride> overrides = List.of(new TurnOverride("seat", "aisle", "window"));

        MemoryBlock block = blocks.render("s-override", GrowingSessions.state(41), profile, overrides, null).block();

        assertThat(block.text()).isEqualTo(renderer.render(GrowingSessions.state(41), profile, overrides, null).text())
                .contains("\"aisle\"");
    }

    @Test
    void aRenderAheadThatComesAfterItsStepIsSkipped() {
        blocks.render("s-late", GrowingSessions.state(41), profile, List.of(), null);
        counted.clear();

        blocks.written("s-late", GrowingSessions.state(41), profile, null);
        blocks.written("s-other", GrowingSessions.state(12), profile, null);
        awaitRenderedAhead("s-other", 12);

        assertThat(counted).as("version 41 not rendered again").noneMatch(c -> c.contains("version 41"));
    }

    /** Until the memo's version shows the render ahead rendered, and it has finished. */
    private void awaitRenderedAhead(String sessionId, long version) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (memo.renderedVersion(sessionId) < version || blocks.running(sessionId)) {
            assertThat(System.nanoTime()).as("rendered ahead within 5 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
