package dev.mnemos.crypt;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The two-generation memo: bounded, keeps what is used, forgets on request, and answers only a key's own value. */
class GenerationsTest {

    @Test
    void holdsAtMostItsBoundAndKeepsWhatIsStillUsed() {
        Generations<Integer, String> memo = new Generations<>(100);
        memo.put(-1, "used");
        for (int i = 0; i < 1_000; i++) {
            memo.put(i, "v" + i);
            assertThat(memo.get(-1)).as("after %d puts", i).isEqualTo("used");
            assertThat(memo.count(k -> true)).isLessThanOrEqualTo(100 + 1);
        }
        assertThat(memo.get(999)).isEqualTo("v999");
        assertThat(memo.get(0)).as("long unused").isNull();
    }

    @Test
    void removeIfDropsTheEntriesOfBothGenerations() {
        Generations<String, String> memo = new Generations<>(10);
        IntStream.range(0, 8).forEach(i -> memo.put((i % 2 == 0 ? "alice-" : "bob-") + i, "v" + i));
        memo.removeIf(k -> k.startsWith("alice-"));
        assertThat(memo.count(k -> k.startsWith("alice-"))).isZero();
        assertThat(memo.get("alice-0")).isNull();
        assertThat(memo.get("bob-7")).isEqualTo("v7");
    }

    @Test
    void threadsTurningGenerationsOverAtOnceGetOnlyTheirKeysValues() throws Exception {
        Generations<Integer, Integer> memo = new Generations<>(64);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> wrong = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                wrong.add(pool.submit(() -> {
                    int seen = 0;
                    for (int i = 0; i < 50_000; i++) {
                        int key = (i * 8 + thread) % 500;
                        memo.put(key, key * 3);
                        Integer value = memo.get((key + 7) % 500);
                        if (value != null && value != ((key + 7) % 500) * 3) {
                            seen++;
                        }
                    }
                    return seen;
                }));
            }
            for (Future<Integer> f : wrong) {
                assertThat(f.get()).isZero();
            }
            assertThat(memo.count(k -> true)).isLessThanOrEqualTo(64 + 2 * 8);
        } finally {
            pool.shutdownNow();
        }
    }
}
