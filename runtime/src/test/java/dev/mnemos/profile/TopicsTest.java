package dev.mnemos.profile;

import dev.mnemos.promotion.Markers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Word overlap: how rewordings and contradictions are told apart when embeddings are off. */
class TopicsTest {

    private final Markers markers = Markers.DEFAULT;

    private double similar(String a, String b) {
        return Topics.similarity(markers.topic(a), markers.topic(b));
    }

    @Test
    void rewordingsShareTheirTopicWords() {
        assertThat(similar("I'd rather take trains than planes", "Trains rather than planes for me"))
                .isGreaterThanOrEqualTo(0.4);
        assertThat(similar("Always include the sources", "from now on include sources")).isEqualTo(1.0);
        assertThat(similar("以后都用表格总结", "每次都用表格总结")).isEqualTo(1.0);
    }

    @Test
    void differentSubjectsDoNot() {
        assertThat(similar("I prefer aisle seats", "I prefer window seats")).isLessThan(0.4);
        assertThat(similar("I don't eat red meat", "I love red wine")).isLessThan(0.4);
    }

    @Test
    void aContradictionIsTheSameTopicWithTheOppositePolarity() {
        String before = "I don't eat red meat";
        String after = "From now on red meat is fine";
        assertThat(Topics.overlap(markers.topic(before), markers.topic(after))).isGreaterThanOrEqualTo(0.6);
        assertThat(markers.negative(before)).isNotEqualTo(markers.negative(after));
    }

    @Test
    void tokensCutEndingsAndPairChineseCharacters() {
        assertThat(Topics.tokens("Trains, flying!")).containsExactly("train", "fly");
        assertThat(Topics.tokens("吃辣")).containsExactly("吃辣");
        assertThat(Topics.tokens("")).isEmpty();
    }
}
