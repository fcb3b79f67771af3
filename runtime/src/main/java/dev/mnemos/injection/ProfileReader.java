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

    public ProfileReader(ProfileSource source) {
        this.source = source;
    }

    @Timeout(500)
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 0.5, delay = 5000)
    @Fallback(fallbackMethod = "missing")
    public ProfileSnapshot load(String userId) {
        ProfileSnapshot snapshot;
        try {
            snapshot = source.load(userId);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Error e) {
            // SmallRye Fault Tolerance's @Timeout only stops its timer for exceptions: an Error (a
            // NoClassDefFoundError from a missing optional dependency) would leave it to interrupt this
            // thread later, in the middle of the model call
            throw new IllegalStateException("the profile source failed: " + e, e);
        }
        return snapshot == null ? ProfileSnapshot.missing() : snapshot;
    }

    ProfileSnapshot missing(String userId) {
        LOG.warnf("profile of user %s could not be read; the step goes on with the session only", userId);
        return ProfileSnapshot.missing();
    }
}
