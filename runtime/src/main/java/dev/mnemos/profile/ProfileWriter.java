package dev.mnemos.profile;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Retry;

import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The Postgres edge of profile writes: each call is its own transaction, retried a few times only
 * when the failure is transient (connection lost, lock timeout, deadlock); a transient failure that
 * persists surfaces as {@link ProfileUnavailableException}. Invalidates the read cache afterwards.
 */
@ApplicationScoped
public class ProfileWriter {

    private final ProfileTransaction transaction;
    private final ProfileCache cache;

    public ProfileWriter(ProfileTransaction transaction, ProfileCache cache) {
        this.transaction = transaction;
        this.cache = cache;
    }

    @Retry(maxRetries = 2, delay = 50, delayUnit = ChronoUnit.MILLIS, retryOn = ProfileUnavailableException.class)
    public List<Change> apply(WriteContext ctx, ChangeSet changes) {
        try {
            return ProfileUnavailableException.guard(() -> transaction.apply(ctx, changes));
        } finally {
            cache.invalidate(ctx.userId());
        }
    }

    @Retry(maxRetries = 2, delay = 50, delayUnit = ChronoUnit.MILLIS, retryOn = ProfileUnavailableException.class)
    public List<Change> forget(WriteContext ctx, long factId) {
        try {
            return ProfileUnavailableException.guard(() -> transaction.forget(ctx, factId));
        } finally {
            cache.invalidate(ctx.userId());
        }
    }
}
