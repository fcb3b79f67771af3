package dev.mnemos.injection;

/**
 * Where the memory block gets the user's long-term profile. The profile feature provides the real
 * bean; {@link EmptyProfileSource} stands in while none exists. Implementations may throw on a
 * failure: {@link StepProfiles} turns any failure into a step without profile.
 */
public interface ProfileSource {

    /** The active facts of {@code userId}; an empty snapshot for a user without a profile. */
    ProfileSnapshot load(String userId);
}
