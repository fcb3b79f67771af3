package dev.mnemos.injection;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.jboss.logging.Logger;

/**
 * Reads the user's profile for a step at the edge of the profile dependency: a slow or failing
 * profile never blocks the step. On a timeout (500 ms, override with
 * {@code dev.mnemos.injection.ProfileReader/load/Timeout/value}), a failure or an open circuit,
 * the step goes on with the session only and its trace says the profile was MISSING.
 */
@ApplicationScoped
public class ProfileReader {

    private static final Logger LOG = Logger.getLogger(ProfileReader.class);

    private final ProfileSource source;

    /** Field-injected so that tests may build the reader with {@code new}; null there. */
    @jakarta.inject.Inject
    dev.mnemos.metrics.MnemosMeters meters;

    public ProfileReader(ProfileSource source) {
        this.source = source;
    }

    @Timeout(500)
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 0.5, delay = 5000)
    @Fallback(fallbackMethod = "missing")
    public ProfileSnapshot load(String userId) {
        ProfileSnapshot snapshot = source.load(userId);
        return snapshot == null ? ProfileSnapshot.missing() : snapshot;
    }

    ProfileSnapshot missing(String userId) {
        LOG.warnf("profile of user %s could not be read; the step goes on with the session only", userId);
        if (meters != null) {
            meters.profileUnavailable();
        }
        return ProfileSnapshot.missing();
    }
}
