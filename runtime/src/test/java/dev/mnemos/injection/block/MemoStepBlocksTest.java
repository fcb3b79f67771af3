package dev.mnemos.injection.block;

import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TokenCounter;
import dev.mnemos.session.SessionState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class MemoStepBlocksTest {

    /** One token per word; every text it counts is recorded. */
    private final List<String> counted = new ArrayList<>();
    private final TokenCounter words = text -> {
        counted.add(text);
        return text.isBlank() ? 0 : text.trim().split("\\s+").length;
    };
    private final MemoryBlockRenderer renderer = new MemoryBlockRenderer(1000, 2, 20, words);
    private final List<ProfileLine> profile = IntStream.rangeClosed(1, 15)
            .mapToObj(i -> new ProfileLine("f" + i, "PREFERENCE", null, "prefers option " + i + " in Japan", 0.5 + i / 40.0))
            .toList();

    @Test
    void eachStepGetsTheBlockAPlainRenderGivesAndCountsOnlyWhatChanged() {
        StepBlocks memo = new MemoStepBlocks(renderer, 4_000_000);
        StepBlocks plain = new PlainStepBlocks(renderer);
        int countedWithMemo = 0;
        int countedPlain = 0;
        for (int step = 1; step <= 60; step++) {
            SessionState s = GrowingSessions.state(step);
            String message = "step " + step + ": what is next?";
            counted.clear();
            MemoryBlock block = memo.render("s-memo", s, profile, List.of(), message);
            countedWithMemo += step > 1 ? counted.size() : 0;
            counted.clear();
            MemoryBlock fresh = plain.render("s-memo", s, profile, List.of(), message);
            countedPlain += step > 1 ? counted.size() : 0;

            assertThat(block.text()).as("step %d", step).isEqualTo(fresh.text());
            assertThat(block.tokens()).isEqualTo(fresh.tokens());
        }
        assertThat(countedWithMemo).as("texts counted after the first step").isLessThan(countedPlain / 5);
    }

    @Test
    void aSessionRendersFromItsOwnLastRenderNotAnothers() {
        StepBlocks memo = new MemoStepBlocks(renderer, 4_000_000);
        memo.render("s-one", GrowingSessions.state(40), profile, List.of(), null);
        counted.clear();

        memo.render("s-two", GrowingSessions.state(41), profile, List.of(), null);

        assertThat(counted).as("another session's memo is not this one's").anyMatch(c -> c.contains("prefers option"));
    }

    @Test
    void theWayOfRenderingIsChosenByTheSettings() {
        assertThat(StepBlocks.of(renderer, 0)).as("no memo").isInstanceOf(PlainStepBlocks.class);
        assertThat(StepBlocks.of(renderer, 1000)).isInstanceOf(MemoStepBlocks.class);
    }
}
