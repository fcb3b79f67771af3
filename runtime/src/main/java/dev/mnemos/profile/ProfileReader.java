package dev.mnemos.profile;

import io.smallrye.faulttolerance.api.TypedGuard;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.util.TypeLiteral;

import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The Postgres edge of profile reads. {@link #activeFacts} is served from {@link ProfileCache}
 * when the profile's revision is unchanged (one primary-key lookup), else loaded and cached.
 * Reads are bounded by {@link ProfileConfig#readTimeout()}; {@link #read} is tried again
 * {@link ProfileConfig#readRetries()} times after a transient failure. {@link #readForStep} is the
 * same read without its own timeout, for the interceptor, whose profile guard already bounds it; it
 * follows {@link #cachedForStep}, which serves the step without Postgres when the revision's copy in Redis
 * ({@link ProfileRevisions}) names facts the cache holds.
 */
@ApplicationScoped
public class ProfileReader {

    private final ProfileRepository repository;
    private final ProfileTransaction transaction;
    private final ProfileCache cache;
    private final ProfileConfig config;
    private final ProfileRevisions revisions;
    private final TypedGuard<Read> readGuard;
    private final TypedGuard<Read> stepGuard;
    private final TypedGuard<List<HistoryEntry>> historyGuard;

    public ProfileReader(ProfileRepository repository, ProfileTransaction transaction, ProfileCache cache,
            ProfileConfig config, ProfileRevisions revisions) {
        this.repository = repository;
        this.revisions = revisions;
        this.transaction = transaction;
        this.cache = cache;
        this.config = config;
        long timeout = config.readTimeout().toMillis();
        this.readGuard = TypedGuard.create(Read.class).withDescription("mnemos profile read")
                .withTimeout().duration(timeout, ChronoUnit.MILLIS).done()
                .withRetry().maxRetries(config.readRetries())
                .delay(config.retryDelay().toMillis(), ChronoUnit.MILLIS)
                .retryOn(ProfileUnavailableException.class).done()
                .build();
        // no timeout of its own: a synchronous timeout schedules a task on a timer thread for every
        // call, and the step's guard (quarkus.mnemos.injection.profile-timeout) bounds this read already
        this.stepGuard = TypedGuard.create(Read.class).withDescription("mnemos profile read for a step")
                .withRetry().maxRetries(config.readRetries())
                .delay(config.retryDelay().toMillis(), ChronoUnit.MILLIS)
                .retryOn(ProfileUnavailableException.class).done()
                .build();
        this.historyGuard = TypedGuard.create(new TypeLiteral<List<HistoryEntry>>() {
        })
                .withDescription("mnemos profile history")
                .withTimeout().duration(timeout, ChronoUnit.MILLIS).done()
                .build();
    }

    /** The user's active facts at {@code revision} and whether they came from the cache. */
    public record Read(List<ActiveFact> facts, boolean cached, long revision) {
    }

    public Read read(String userId) {
        return readGuard.get(() -> readOnce(userId));
    }

    /**
     * For a step that found the revision's copy in Redis naming no revision the cache holds ({@link #cachedForStep}):
     * {@link #read} with its retries but without its timeout (the caller bounds the wait), and the revision read
     * is offered to its copy in Redis, so the next step can skip Postgres.
     */
    public Read readForStep(String userId) {
        Read read = stepGuard.get(() -> readOnce(userId));
        revisions.offer(userId, read.revision());
        return read;
    }

    /** The cached facts when the revision's copy in Redis names a revision the cache holds; never reads Postgres. */
    public Optional<Read> cachedForStep(String userId) {
        OptionalLong copied = revisions.current(userId);
        return copied.isPresent() ? cached(userId, copied.getAsLong()) : Optional.empty();
    }

    /**
     * {@link #cachedForStep}, its revision copy's read sent now: the answer is taken when the supplier is called (on
     * the calling thread, waiting for the copy's reply when it has not come yet).
     */
    public Supplier<Optional<Read>> cachedForStepAhead(String userId) {
        Supplier<OptionalLong> copied = revisions.ahead(userId);
        return () -> {
            OptionalLong revision = copied.get();
            return revision.isPresent() ? cached(userId, revision.getAsLong()) : Optional.empty();
        };
    }

    private Read readOnce(String userId) {
        return ProfileUnavailableException.guard(() -> {
            long revision = repository.revision(userId);
            ProfileCache.Lookup lookup = cache.get(userId, revision, () -> transaction.active(userId));
            return new Read(lookup.facts(), lookup.cached(), revision);
        });
    }

    private Optional<Read> cached(String userId, long revision) {
        return cache.peek(userId, revision).map(facts -> new Read(facts, true, revision));
    }

    public List<ActiveFact> activeFacts(String userId) {
        return read(userId).facts();
    }

    public List<HistoryEntry> history(String userId) {
        return historyGuard
                .get(() -> ProfileUnavailableException.guard(() -> transaction.history(userId, config.historyLimit())));
    }

    /** One page of the audit trail: events older than {@code beforeId}, newest first. */
    public List<HistoryEntry> history(String userId, long beforeId, int limit) {
        return historyGuard
                .get(() -> ProfileUnavailableException.guard(() -> transaction.history(userId, beforeId, limit)));
    }

    public List<FactDraft> snapshot(String userId) {
        return ProfileUnavailableException.guard(() -> transaction.snapshot(userId));
    }
}
