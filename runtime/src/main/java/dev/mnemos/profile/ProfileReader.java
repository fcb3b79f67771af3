package dev.mnemos.profile;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;

import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The Postgres edge of profile reads. {@link #activeFacts} is served from {@link ProfileCache}
 * when the profile's revision is unchanged (one primary-key lookup), else loaded and cached.
 */
@ApplicationScoped
public class ProfileReader {

    private final ProfileRepository repository;
    private final ProfileTransaction transaction;
    private final ProfileCache cache;
    private final ProfileConfig config;

    public ProfileReader(ProfileRepository repository, ProfileTransaction transaction, ProfileCache cache,
                         ProfileConfig config) {
        this.repository = repository;
        this.transaction = transaction;
        this.cache = cache;
        this.config = config;
    }

    /** The user's active facts and whether they came from the cache. */
    public record Read(List<ActiveFact> facts, boolean cached) {
    }

    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 1, delay = 50, delayUnit = ChronoUnit.MILLIS, retryOn = ProfileUnavailableException.class)
    public Read read(String userId) {
        return ProfileUnavailableException.guard(() -> {
            long revision = repository.revision(userId);
            Optional<List<ActiveFact>> cached = cache.get(userId, revision);
            if (cached.isPresent()) {
                return new Read(cached.get(), true);
            }
            List<ActiveFact> facts = List.copyOf(transaction.active(userId));
            cache.put(userId, revision, facts);
            return new Read(facts, false);
        });
    }

    public List<ActiveFact> activeFacts(String userId) {
        return read(userId).facts();
    }

    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    public List<HistoryEntry> history(String userId) {
        return ProfileUnavailableException.guard(() -> transaction.history(userId, config.historyLimit()));
    }

    public List<FactDraft> snapshot(String userId) {
        return ProfileUnavailableException.guard(() -> transaction.snapshot(userId));
    }
}
