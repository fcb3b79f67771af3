package dev.mnemos.injection.block;

import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TokenCounter;
import dev.mnemos.session.SessionState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class RenderMemoTest {

    /** A stand-in tokenizer: one token per word, and a record of every text it was asked to count. */
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
    void aSessionRenderedWithItsMemoGetsTheBlocksARenderWithoutOneGives() {
        RenderMemo memo = RenderMemo.EMPTY;
        for (int step = 1; step <= 120; step++) {
            SessionState s = GrowingSessions.state(step);
            String message = "step " + step + ": what is next?";

            MemoryBlockRenderer.Rendered remembered = renderer.render(s, profile, List.of(), message, memo);
            MemoryBlock fresh = renderer.render(s, profile, List.of(), message);

            assertThat(remembered.block()).as("step %d", step).isEqualTo(fresh);
            memo = remembered.memo();
        }
        assertThat(GrowingSessions.state(120).summary().length()).as("the summary outgrew the window of its cut")
                .isGreaterThan(3000);
    }

    @Test
    void anUnchangedBlockIsNotCountedAgainAndAChangedOneOnlyInItsChangedLines() {
        SessionState before = GrowingSessions.state(40);
        MemoryBlockRenderer.Rendered first = renderer.render(before, profile, List.of(), null, RenderMemo.EMPTY);
        int firstCounts = counted.size();

        counted.clear();
        MemoryBlockRenderer.Rendered same = renderer.render(before, profile, List.of(), null, first.memo());
        List<String> countedForSame = List.copyOf(counted);

        counted.clear();
        Map<String, String> collected = new TreeMap<>(before.collected());
        collected.put("answer.40", "a new answer of step 40");
        SessionState after = new SessionState(before.sessionId(), before.userId(), before.version() + 1, before.createdAt(),
                before.updatedAt(), before.status(), before.goal(), before.context(), before.constraints(),
                before.openQuestions(), collected, before.stepPointer(), before.plans(), before.observations(),
                before.summary(), before.forkedFrom());
        MemoryBlockRenderer.Rendered changed = renderer.render(after, profile, List.of(), null, same.memo());

        assertThat(firstCounts).as("the first render counts every line").isGreaterThan(20);
        assertThat(countedForSame).as("the same state again: nothing counted").isEmpty();
        assertThat(same.block()).isEqualTo(first.block());
        assertThat(counted).as("only the version line and the changed value's line are counted")
                .hasSize(2)
                .anySatisfy(text -> assertThat(text).contains("version " + after.version()))
                .anySatisfy(text -> assertThat(text).contains("a new answer of step 40"));
        assertThat(changed.block()).isEqualTo(renderer.render(after, profile, List.of(), null));
    }

    @Test
    void aTextAskedForAFewRendersAgoIsNotCountedAgain() {
        SessionState with = GrowingSessions.state(40);
        SessionState without = GrowingSessions.withCollected(with, Map.of());
        RenderMemo memo = renderer.render(with, profile, List.of(), null, RenderMemo.EMPTY).memo();
        for (int i = 0; i < RenderMemo.KEPT_RENDERS - 2; i++) {
            memo = renderer.render(without, profile, List.of(), null, memo).memo();
        }

        counted.clear();
        MemoryBlockRenderer.Rendered again = renderer.render(with, profile, List.of(), null, memo);

        assertThat(counted).as("the collected lines of %d renders ago", RenderMemo.KEPT_RENDERS - 1).isEmpty();
        assertThat(again.block()).isEqualTo(renderer.render(with, profile, List.of(), null));
    }

    @Test
    void aMemoForgetsWhatNoneOfItsRecentRendersAskedFor() {
        MemoryBlockRenderer.Rendered big = renderer.render(GrowingSessions.state(100), profile, List.of(), null,
                RenderMemo.EMPTY);
        RenderMemo memo = big.memo();
        RenderMemo afterOne = renderer.render(GrowingSessions.state(1), List.of(), List.of(), null, memo).memo();
        for (int i = 0; i < RenderMemo.KEPT_RENDERS; i++) {
            memo = renderer.render(GrowingSessions.state(1), List.of(), List.of(), null, memo).memo();
        }
        RenderMemo small = renderer.render(GrowingSessions.state(1), List.of(), List.of(), null, RenderMemo.EMPTY).memo();

        assertThat(big.memo().chars()).as("the big block's texts").isGreaterThan(big.block().text().length() / 2);
        assertThat(afterOne.size()).as("one small render later the big one's answers are still kept")
                .isGreaterThan(big.memo().size());
        assertThat(memo.size()).as("%d renders later only the small block's", RenderMemo.KEPT_RENDERS).isEqualTo(small.size());
        assertThat(memo.chars()).isEqualTo(small.chars());
    }

}
