package dev.mnemos.profile;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

class ThreeWayMergeTest {

    private static List<String> merge(List<String> base, List<String> incoming, List<String> current) {
        return ThreeWayMerge.merge(base, incoming, current, Function.identity());
    }

    @Test
    void keepsIncomingAdditionAndConcurrentAddition() {
        assertThat(merge(List.of("burgers"), List.of("burgers", "pizza"), List.of("burgers", "cheese")))
                .containsExactly("burgers", "pizza", "cheese");
    }

    @Test
    void doesNotUndoConcurrentDelete() {
        assertThat(merge(List.of("burgers"), List.of("burgers", "pizza"), List.of()))
                .containsExactly("pizza");
    }

    @Test
    void dropsWhatTheWriterDeleted() {
        assertThat(merge(List.of("burgers", "pizza"), List.of("pizza"), List.of("burgers", "pizza")))
                .containsExactly("pizza");
    }

    @Test
    void writerDeleteAndConcurrentAdditionBothHold() {
        assertThat(merge(List.of("burgers"), List.of(), List.of("burgers", "cheese")))
                .containsExactly("cheese");
    }

    @Test
    void sameAdditionOnBothSidesAppearsOnce() {
        assertThat(merge(List.of(), List.of("pizza"), List.of("pizza"))).containsExactly("pizza");
    }

    @Test
    void currentVersionOfAKeptItemWins() {
        record Item(String key, int evidence) {
        }
        List<Item> merged = ThreeWayMerge.merge(List.of(new Item("a", 1)), List.of(new Item("a", 1)),
                List.of(new Item("a", 3)), Item::key);
        assertThat(merged).containsExactly(new Item("a", 3));
    }

    @Test
    void emptyEverywhereIsEmpty() {
        assertThat(merge(List.of(), List.of(), List.of())).isEmpty();
    }
}
