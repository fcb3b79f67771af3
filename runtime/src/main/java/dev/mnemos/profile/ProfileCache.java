package dev.mnemos.profile;

import io.quarkus.cache.Cache;
import io.quarkus.cache.CacheName;
import io.quarkus.cache.CaffeineCache;
import io.quarkus.cache.CompositeCacheKey;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Active facts per user, cached with Quarkus Cache (Caffeine) under the key (user, profile revision). Every write
 * bumps the revision, so a reader that has just read the revision never sees facts older than it, on any pod; the
 * superseded entries are never read again and leave by size ({@code quarkus.cache.caffeine."mnemos-profile".maximum-size},
 * default 10000) or age ({@code expire-after-access}, default 10 minutes).
 */
@ApplicationScoped
public class ProfileCache {

    public static final String NAME = "mnemos-profile";

    /** The facts and whether they came from the cache. */
    public record Lookup(List<ActiveFact> facts, boolean cached) {
    }

    private final Cache cache;

    public ProfileCache(@CacheName(NAME) Cache cache) {
        this.cache = cache;
    }

    /** The facts of {@code userId} at {@code revision} when the cache holds them (loaded), else empty; never loads. */
    public Optional<List<ActiveFact>> peek(String userId, long revision) {
        if (!(cache instanceof CaffeineCache caffeine)) {
            return Optional.empty(); // caches turned off (quarkus.cache.enabled=false): nothing is held
        }
        CompletableFuture<List<ActiveFact>> held = caffeine.getIfPresent(new CompositeCacheKey(userId, revision));
        if (held == null || !held.isDone() || held.isCompletedExceptionally()) {
            return Optional.empty();
        }
        return Optional.of(held.join());
    }

    /** The facts of {@code userId} at {@code revision}: cached, or loaded once by {@code load} and cached. */
    public Lookup get(String userId, long revision, Supplier<List<ActiveFact>> load) {
        AtomicBoolean loaded = new AtomicBoolean();
        List<ActiveFact> facts = cache.<CompositeCacheKey, List<ActiveFact>> get(new CompositeCacheKey(userId, revision),
                key -> {
                    loaded.set(true);
                    return List.copyOf(load.get());
                }).await().indefinitely();
        return new Lookup(facts, !loaded.get());
    }

    /** Drops every revision of {@code userId}'s facts this pod holds (after a forget or an erasure). */
    public void invalidate(String userId) {
        cache.invalidateIf(key -> key instanceof CompositeCacheKey c && c.getKeyElements().length > 0
                && userId.equals(c.getKeyElements()[0])).await().indefinitely();
    }
}
