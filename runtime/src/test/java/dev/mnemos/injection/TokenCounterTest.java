package dev.mnemos.injection;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class TokenCounterTest {

    /** A stand-in tokenizer: one token per word, and a record of every text it was asked to count. */
    private final List<String> counted = new ArrayList<>();
    private final TokenCounter words = text -> {
        counted.add(text);
        return text.isBlank() ? 0 : text.trim().split("\\s+").length;
    };

    @Test
    void aRememberingCounterCountsEachTextOnceAndAnswersTheSame() {
        TokenCounter remembering = TokenCounter.remembering(words, 10_000);
        String plan = "1. Arrive in Kyoto 2. Fushimi Inari at dawn 3. Nara deer park ".repeat(20);

        String first = remembering.prefix(plan, 37);
        int searched = counted.size();
        String again = remembering.prefix(plan, 37);

        assertThat(searched).as("counts made by the first search").isGreaterThan(1);
        assertThat(counted).as("the second search counts nothing").hasSize(searched);
        assertThat(again).isEqualTo(first).isEqualTo(words.prefix(plan, 37));
        assertThat(words.count(first)).isEqualTo(37);
        assertThat(remembering.count(plan)).isEqualTo(words.count(plan)).isEqualTo(260);
    }

    @Test
    void aRememberingCounterKeepsAtMostItsSizeAndCountsForgottenTextAgain() {
        TokenCounter remembering = TokenCounter.remembering(words, 1_000);
        List<String> texts = IntStream.range(0, 100).mapToObj(i -> "text number " + i + " " + "x".repeat(20))
                .toList();
        texts.forEach(remembering::count);
        counted.clear();
        texts.forEach(t -> assertThat(remembering.count(t)).isEqualTo(4));
        // 100 texts of 34-35 characters, at most 1,000 characters remembered: most are counted again
        assertThat(counted).hasSizeGreaterThanOrEqualTo(100 - 1_000 / 34);
    }

    @Test
    void prefixAndSuffixAreTheLongestThatFitWithAFewCounts() {
        String text = "Day one: Fushimi Inari at dawn, then Tofuku-ji and the east; day two: Nara. ".repeat(30);
        for (int max = 0; max <= words.count(text) + 1; max += 7) {
            counted.clear();
            String prefix = words.prefix(text, max);
            int counts = counted.size();
            assertThat(prefix).as("prefix within %d words", max).isEqualTo(longestPrefix(text, max));
            assertThat(words.suffix(text, max)).as("suffix within %d words", max).isEqualTo(longestSuffix(text, max));
            // a bisection over 2,280 lengths makes 12 counts; the guided search far fewer
            assertThat(counts).as("counts for a prefix of %d words", max).isLessThanOrEqualTo(8);
        }
    }

    private String longestPrefix(String text, int max) {
        int n = text.length();
        while (n > 0 && words.count(text.substring(0, n)) > max) {
            n--;
        }
        return text.substring(0, n);
    }

    private String longestSuffix(String text, int max) {
        int n = text.length();
        while (n > 0 && words.count(text.substring(text.length() - n)) > max) {
            n--;
        }
        return text.substring(text.length() - n);
    }

    @Test
    void aCutOfALongTextCountsOnlyAWindowOfItsEnd() {
        // 4,000 characters of summary of which a cut keeps 30 words: what is counted stays near the
        // window of 8 characters a token, and the answer is the one a search over the whole text gives
        String summary = "v12: asked about temples, trains and the weather in Nara. ".repeat(70);
        for (boolean end : new boolean[] { false, true }) {
            counted.clear();
            String cut = end ? words.suffix(summary, 30) : words.prefix(summary, 30);
            List<String> searched = List.copyOf(counted);
            assertThat(searched).as("texts counted").isNotEmpty()
                    .allSatisfy(t -> assertThat(t.length()).isLessThanOrEqualTo(8 * 31));
            assertThat(cut).isEqualTo(end ? longestSuffix(summary, 30) : longestPrefix(summary, 30));
            assertThat(end ? words.exceedsAtEnd(summary, 30) : words.exceeds(summary, 30)).isTrue();
        }
        assertThat(words.exceeds(summary, 1_000)).as("counted whole when its start is within the bound").isFalse();
        assertThat(counted).as("the whole text is counted then").contains(summary);
    }

    @Test
    void aLongTextOfFewTokensIsCutAfterCountingItWhole() {
        // 400 spaces around two words: a window of 8 characters a token holds too few tokens to judge
        String sparse = "a" + " ".repeat(400) + "b";
        assertThat(words.exceeds(sparse, 3)).isFalse();
        assertThat(words.prefix(sparse, 1)).isEqualTo(longestPrefix(sparse, 1));
        assertThat(words.suffix(sparse, 1)).isEqualTo(longestSuffix(sparse, 1));
    }

    @Test
    void zeroCharactersMeansNoMemory() {
        assertThat(TokenCounter.remembering(words, 0)).isSameAs(words);
    }
}
