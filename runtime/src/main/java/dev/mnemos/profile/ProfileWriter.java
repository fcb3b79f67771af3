package dev.mnemos.profile;

import dev.mnemos.session.Idempotency;
import io.smallrye.faulttolerance.api.TypedGuard;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.util.TypeLiteral;

import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The Postgres edge of profile writes: each call is its own transaction, tried again
 * {@link ProfileConfig#writeRetries()} times only when the failure is transient (connection lost,
 * lock timeout, deadlock); a transient failure that persists surfaces as
 * {@link ProfileUnavailableException}. The read cache needs no invalidation: every write bumps the
 * profile revision, which is part of its key ({@link ProfileCache}).
 */
@ApplicationScoped
public class ProfileWriter {

    private final ProfileTransaction transaction;
    private final TypedGuard<List<Change>> retry;
    private final TypedGuard<ProfileRequests.Outcome> keyedRetry;

    public ProfileWriter(ProfileTransaction transaction, ProfileConfig config) {
        this.transaction = transaction;
        this.retry = TypedGuard.create(new TypeLiteral<List<Change>>() {
        }).withDescription("mnemos profile write")
                .withRetry().maxRetries(config.writeRetries())
                .delay(config.retryDelay().toMillis(), ChronoUnit.MILLIS)
                .retryOn(ProfileUnavailableException.class).done()
                .build();
        this.keyedRetry = TypedGuard.create(ProfileRequests.Outcome.class).withDescription("mnemos keyed profile write")
                .withRetry().maxRetries(config.writeRetries())
                .delay(config.retryDelay().toMillis(), ChronoUnit.MILLIS)
                .retryOn(ProfileUnavailableException.class).done()
                .build();
    }

    public List<Change> apply(WriteContext ctx, ChangeSet changes) {
        return retry.get(() -> {
            return ProfileUnavailableException.guard(() -> transaction.apply(ctx, changes));
        });
    }

    /**
     * {@link #apply} at most once per key ({@link ProfileTransaction#applyOnce}): a retry after a commit whose
     * answer was lost finds the record and writes nothing.
     */
    public ProfileRequests.Outcome applyOnce(WriteContext ctx, ChangeSet changes, Idempotency idem, Reconciler.Path path) {
        return keyedRetry.get(() -> ProfileUnavailableException.guard(() -> transaction.applyOnce(ctx, changes, idem, path)));
    }

    /** {@link #forget} at most once per key, as {@link #applyOnce}. */
    public ProfileRequests.Outcome forgetOnce(WriteContext ctx, long factId, Idempotency idem) {
        return keyedRetry.get(() -> ProfileUnavailableException.guard(() -> transaction.forgetOnce(ctx, factId, idem)));
    }

    public List<Change> forget(WriteContext ctx, long factId) {
        return retry.get(() -> {
            return ProfileUnavailableException.guard(() -> transaction.forget(ctx, factId));
        });
    }
}
