package dev.mnemos.profile;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * In-process cache of active facts per user, tagged with the profile revision they were read at.
 * A hit is served only when the caller confirms the revision is still current, so a write on any
 * pod is seen at once; local writes also drop the entry.
 */
@ApplicationScoped
public class ProfileCache {

    private record Entry(long revision, List<ActiveFact> facts) {
    }

    /** Users kept at most; beyond it some entries are dropped, which is always safe (a miss re-reads). */
    static final int MAX_USERS = 10_000;

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final int maxUsers;

    public ProfileCache() {
        this(MAX_USERS);
    }

    ProfileCache(int maxUsers) {
        this.maxUsers = maxUsers;
    }

    /** The facts cached for {@code userId} at exactly {@code revision}. */
    public Optional<List<ActiveFact>> get(String userId, long revision) {
        Entry entry = entries.get(userId);
        return entry != null && entry.revision() == revision ? Optional.of(entry.facts()) : Optional.empty();
    }

    /** Caches {@code facts} read at {@code revision}, unless a newer revision is cached already. */
    public void put(String userId, long revision, List<ActiveFact> facts) {
        entries.merge(userId, new Entry(revision, List.copyOf(facts)),
                (old, fresh) -> old.revision() > fresh.revision() ? old : fresh);
        int excess = entries.size() - maxUsers;
        if (excess > 0) {
            entries.keySet().stream().filter(k -> !k.equals(userId)).limit(excess + maxUsers / 10).toList()
                    .forEach(entries::remove);
        }
    }

    int size() {
        return entries.size();
    }

    public void invalidate(String userId) {
        entries.remove(userId);
    }
}
