package dev.mnemos.testsupport;

import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.ProfileSource;
import dev.mnemos.profile.ProfileInjectionSource;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The profile source of the extension's and the server's test applications: facts a test set per user, or a failure or delay on
 * demand. Users a test did not set are read from the application's real profile (Postgres), so
 * end-to-end tests see what the profile API wrote.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class ScriptedProfileSource implements ProfileSource {

    private final Map<String, List<ProfileLine>> facts = new ConcurrentHashMap<>();
    private final ProfileInjectionSource real;
    private volatile boolean failing;
    private volatile Error error;
    private volatile Duration delay = Duration.ZERO;
    private final AtomicInteger loads = new AtomicInteger();

    public ScriptedProfileSource(ProfileInjectionSource real) {
        this.real = real;
    }

    @Override
    public ProfileSnapshot load(String userId) {
        loads.incrementAndGet();
        if (!delay.isZero()) {
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        if (failing) {
            throw new IllegalStateException("profile database unreachable (scripted)");
        }
        if (error != null) {
            throw error;
        }
        List<ProfileLine> set = facts.get(userId);
        if (set != null) {
            return ProfileSnapshot.of(set, ProfileSnapshot.Cache.MISS);
        }
        return real.load(userId);
    }

    /** The real source's cache, for users and times no test scripted (as the benchmark runs). */
    @Override
    public Optional<ProfileSnapshot> known(String userId) {
        return scripted(userId) ? Optional.empty() : real.known(userId);
    }

    private boolean scripted(String userId) {
        return failing || error != null || !delay.isZero() || facts.containsKey(userId);
    }

    public void set(String userId, List<ProfileLine> lines) {
        facts.put(userId, List.copyOf(lines));
    }

    /** Every read waits this long first (a slow database). */
    public void delay(Duration value) {
        delay = value;
    }

    public void failing(boolean value) {
        failing = value;
    }

    /** How many reads reached this source so far (an open circuit keeps them away). */
    public int loads() {
        return loads.get();
    }

    /** Every read throws {@code value} (null: none), as a source missing an optional class would. */
    public void throwing(Error value) {
        error = value;
    }
}
