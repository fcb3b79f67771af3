package dev.mnemos.injection;

import dev.mnemos.metrics.Outages;
import io.smallrye.faulttolerance.api.TypedGuard;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads the user's profile for a step at the edge of the profile dependency: a slow or failing
 * profile never blocks the step. On a timeout ({@link InjectionConfig#profileTimeout()}), a failure
 * or an open circuit (see the {@code profile-breaker-*} settings), the step goes on with the session
 * only and its trace says the profile was MISSING. A source's cheap check ({@link ProfileSource#current}),
 * started before the session is read, spares the guarded read when it finds the facts current.
 */
@ApplicationScoped
public class ProfileReader {

    private static final Logger LOG = Logger.getLogger(ProfileReader.class);

    private final ProfileSource source;
    private final Function<Supplier<ProfileSnapshot>, ProfileSnapshot> guard;
    private final Duration timeout;

    @Inject
    public ProfileReader(ProfileSource source, InjectionConfig config, Outages outages) {
        this(source, guard(config, outages)::get, config.profileTimeout());
    }

    /** A reader whose every call goes through {@code guard}; {@code Supplier::get} for none (tests without CDI). */
    ProfileReader(ProfileSource source, Function<Supplier<ProfileSnapshot>, ProfileSnapshot> guard) {
        this(source, guard, Duration.ofSeconds(1));
    }

    private ProfileReader(ProfileSource source, Function<Supplier<ProfileSnapshot>, ProfileSnapshot> guard,
            Duration timeout) {
        this.source = source;
        this.guard = guard;
        this.timeout = timeout;
    }

    /**
     * Starts the source's cheap check ({@link ProfileSource#current}) for the user a session is
     * expected to belong to; never fails.
     */
    public CompletableFuture<Optional<ProfileSnapshot>> current(String userId) {
        try {
            return source.current(userId).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
    }

    /** The source's {@link ProfileSource#currentKey}; empty when it fails. */
    public Optional<String> currentKey(String userId) {
        try {
            return source.currentKey(userId);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The source's {@link ProfileSource#currentFrom}, done, as {@link #load(String, CompletableFuture)} takes it; never fails.
     */
    public CompletableFuture<Optional<ProfileSnapshot>> currentFrom(String userId, String value) {
        try {
            return CompletableFuture.completedFuture(source.currentFrom(userId, value));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
    }

    /** Whether the source's cheap check runs on the calling thread ({@link ProfileSource#checksOnCallingThread()}). */
    public boolean checksOnCallingThread() {
        return source.checksOnCallingThread();
    }

    /**
     * The snapshot {@code early} (a {@link #current} check started for this user) found, when it is
     * done or answers within the profile timeout; else {@link #load(String)}.
     */
    public ProfileSnapshot load(String userId, CompletableFuture<Optional<ProfileSnapshot>> early) {
        if (early != null) {
            try {
                Optional<ProfileSnapshot> known = early.isDone() ? early.getNow(Optional.empty())
                        : early.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (known.isPresent()) {
                    return known.get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
                LOG.debugf("the profile's cheap check failed (%s); reading it", e);
            }
        }
        return load(userId);
    }

    public ProfileSnapshot load(String userId) {
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
