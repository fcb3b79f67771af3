package dev.mnemos.profile;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProfileCacheTest {

    private static final List<ActiveFact> OLD = List.of(new ActiveFact(1, Category.FACT, null, "old", 1, Instant.EPOCH, null));
    private static final List<ActiveFact> NEW = List.of(new ActiveFact(2, Category.FACT, null, "new", 1, Instant.EPOCH, null));

    @Test
    void servesOnlyTheRevisionItWasReadAt() {
        ProfileCache cache = new ProfileCache();
        cache.put("u", 3, OLD);
        assertThat(cache.get("u", 3)).contains(OLD);
        assertThat(cache.get("u", 4)).isEmpty();
    }

    @Test
    void aLateReaderNeverReplacesANewerEntry() {
        ProfileCache cache = new ProfileCache();
        cache.put("u", 5, NEW);
        cache.put("u", 4, OLD);
        assertThat(cache.get("u", 5)).contains(NEW);
    }

    @Test
    void invalidateDropsTheEntry() {
        ProfileCache cache = new ProfileCache();
        cache.put("u", 1, OLD);
        cache.invalidate("u");
        assertThat(cache.get("u", 1)).isEmpty();
    }

    @Test
    void staysBoundedAndKeepsTheEntryJustPut() {
        ProfileCache cache = new ProfileCache(100);
        for (int i = 0; i < 1_000; i++) {
            cache.put("user-" + i, 1, java.util.List.of());
        }
        org.assertj.core.api.Assertions.assertThat(cache.size()).isLessThanOrEqualTo(100);
        org.assertj.core.api.Assertions.assertThat(cache.get("user-999", 1)).isPresent();
    }
}
