package dev.mnemos.injection;

import dev.mnemos.profile.ProfileInjectionSource;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The profile source of {@code @QuarkusTest}s: facts a test set per user, or a failure or delay on
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
    private final Map<String, List<String>> checks = new ConcurrentHashMap<>();

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

    /** The real source's check for users not scripted, while nothing is scripted to fail or wait; else empty. */
    @Override
    public CompletableFuture<Optional<ProfileSnapshot>> current(String userId) {
        checks.computeIfAbsent(userId, u -> new java.util.concurrent.CopyOnWriteArrayList<>()).add("current");
        return scripted(userId) ? CompletableFuture.completedFuture(Optional.empty()) : real.current(userId);
    }

    @Override
    public boolean checksOnCallingThread() {
        return real.checksOnCallingThread();
    }

    /** The real source's key, with {@link #current}'s conditions. */
    @Override
    public Optional<String> currentKey(String userId) {
        return scripted(userId) ? Optional.empty() : real.currentKey(userId);
    }

    @Override
    public Optional<ProfileSnapshot> currentFrom(String userId, String value) {
        checks.computeIfAbsent(userId, u -> new java.util.concurrent.CopyOnWriteArrayList<>()).add("currentFrom");
        return scripted(userId) ? Optional.empty() : real.currentFrom(userId, value);
    }

    /** Whether reads of {@code userId} are scripted here (facts, a failure or a delay), not the real source's. */
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

    /** The cheap checks steps made of {@code userId}'s profile, in order: "current" or "currentFrom". */
    public List<String> checks(String userId) {
        return List.copyOf(checks.getOrDefault(userId, List.of()));
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
