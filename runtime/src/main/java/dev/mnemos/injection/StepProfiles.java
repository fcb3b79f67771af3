package dev.mnemos.injection;

import dev.mnemos.metrics.Outages;
import io.smallrye.faulttolerance.api.TypedGuard;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads the user's profile for a step at the edge of the profile dependency: a slow or failing
 * profile never blocks the step. On a timeout ({@link InjectionConfig#profileTimeout()}), a failure
 * or an open circuit (see the {@code profile-breaker-*} settings), the step goes on with the session
 * only and its trace says the profile was MISSING. A profile the source knows at once (its cache, current by
 * the revision's copy in Redis) skips the guard: its timer and breaker bound waiting on the profile's store.
 */
@ApplicationScoped
public class StepProfiles {

    private static final Logger LOG = Logger.getLogger(StepProfiles.class);

    private final ProfileSource source;
    private final Function<Supplier<ProfileSnapshot>, ProfileSnapshot> guard;

    @Inject
    public StepProfiles(ProfileSource source, InjectionConfig config, Outages outages) {
        this(source, guard(config, outages)::get);
    }

    /** A reader whose every call goes through {@code guard}. */
    private StepProfiles(ProfileSource source, Function<Supplier<ProfileSnapshot>, ProfileSnapshot> guard) {
        this.source = source;
        this.guard = guard;
    }

    /** A reader without timeout, breaker or fallback: a failure of {@code source} reaches the caller (tests without CDI). */
    public static StepProfiles unguarded(ProfileSource source) {
        return new StepProfiles(source, Supplier::get);
    }

    /** The profile {@link ProfileSource#known known} at once, else loaded in the guard. */
    public ProfileSnapshot load(String userId) {
        return load(userId, null);
    }

    /**
     * Starts checking whether {@code userId}'s profile is known at once ({@link ProfileSource#ahead}): a step sends
     * that check before it reads its session, so both round trips travel together.
     */
    public Ahead ahead(String userId) {
        try {
            return new Ahead(userId, source.ahead(userId));
        } catch (RuntimeException e) {
            LOG.debugf("the profile of %s was not checked ahead (%s)", userId, e.toString());
            return null;
        }
    }

    /**
     * {@link #load(String)}, taking the check {@code ahead} started when it was for the same user (a step acting for
     * another user than the session's owner checks again).
     *
     * @param ahead a check {@link #ahead} started, or null
     */
    public ProfileSnapshot load(String userId, Ahead ahead) {
        Optional<ProfileSnapshot> known = ahead != null && ahead.userId().equals(userId)
                ? known(userId, ahead.check()::known)
                : known(userId, () -> source.known(userId));
        return known.orElseGet(() -> guarded(userId));
    }

    /** A check of a user's profile started before the step read its session. */
    public record Ahead(String userId, ProfileSource.Ahead check) {
    }

    private static Optional<ProfileSnapshot> known(String userId, Supplier<Optional<ProfileSnapshot>> check) {
        try {
            return check.get();
        } catch (RuntimeException e) {
            LOG.debugf("the profile of %s was not known at once (%s): loading it", userId, e.toString());
            return Optional.empty();
        }
    }

    private ProfileSnapshot guarded(String userId) {
        return guard.apply(() -> {
            ProfileSnapshot snapshot;
            try {
                snapshot = source.load(userId);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Error e) {
                // the fault-tolerance timeout only stops its timer for exceptions: an Error (a
                // NoClassDefFoundError from a missing optional dependency) would leave it to interrupt this
                // thread later, in the middle of the model call
                throw new IllegalStateException("the profile source failed: " + e, e);
            }
            return snapshot == null ? ProfileSnapshot.missing() : snapshot;
        });
    }

    private static TypedGuard<ProfileSnapshot> guard(InjectionConfig config, Outages outages) {
        return TypedGuard.create(ProfileSnapshot.class).withDescription("mnemos profile for a step")
                .withTimeout().duration(config.profileTimeout().toMillis(), ChronoUnit.MILLIS).done()
                .withCircuitBreaker().requestVolumeThreshold(config.profileBreakerRequests())
                .failureRatio(config.profileBreakerFailureRatio())
                .delay(config.profileBreakerDelay().toMillis(), ChronoUnit.MILLIS).done()
                .withFallback().handler(failure -> missing(failure, outages)).done()
                .build();
    }

    private static ProfileSnapshot missing(Throwable failure, Outages outages) {
        LOG.warnf("the profile could not be read (%s); the step goes on with the session only", failure.toString());
        outages.postgres();
        return ProfileSnapshot.missing();
    }
}
