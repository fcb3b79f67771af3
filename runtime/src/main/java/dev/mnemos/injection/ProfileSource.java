package dev.mnemos.injection;

import dev.mnemos.injection.step.EmptyProfileSource;

import java.util.Optional;

/**
 * Where the memory block gets the user's long-term profile. The profile feature provides the real
 * bean; {@link EmptyProfileSource} stands in while none exists. Implementations may throw on a
 * failure: {@link StepProfiles} turns any failure into a step without profile.
 */
public interface ProfileSource {

    /**
     * The active facts of {@code userId}; an empty snapshot for a user without a profile. {@link StepProfiles}
     * calls it when {@link #known} answered empty, so it need not check again what that checked.
     */
    ProfileSnapshot load(String userId);

    /**
     * The active facts of {@code userId} when they can be told without the profile's own store (a cache whose
     * currency is known at once), else empty: {@link StepProfiles} then calls {@link #load} in its guard. What
     * this answers is not bounded by the profile's timeout and breaker, so it must not wait on the profile's
     * store; it may throw, and the step then loads as usual.
     */
    default Optional<ProfileSnapshot> known(String userId) {
        return Optional.empty();
    }

    /**
     * Starts {@link #known} without waiting for it: a source whose check is a round trip sends it now, so that it
     * travels while the step reads its session, and {@link Ahead#known()} later takes its answer. The same rules as
     * {@link #known} hold; the default asks {@link #known} when the answer is taken.
     */
    default Ahead ahead(String userId) {
        return () -> known(userId);
    }

    /** A {@link #known} check started by {@link #ahead}. */
    interface Ahead {
        /** What {@link #known} answers; may throw, and the step then loads as usual. */
        Optional<ProfileSnapshot> known();
    }
}
