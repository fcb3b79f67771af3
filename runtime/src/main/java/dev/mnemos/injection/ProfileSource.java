package dev.mnemos.injection;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Where the memory block gets the user's long-term profile. The profile feature provides the real
 * bean; {@link EmptyProfileSource} stands in while none exists. Implementations may throw on a
 * failure: {@link ProfileReader} turns any failure into a step without profile.
 */
public interface ProfileSource {

    /** The active facts of {@code userId}; an empty snapshot for a user without a profile. */
    ProfileSnapshot load(String userId);

    /**
     * Started before the step reads its session, for the user the session is expected to belong to
     * (after it, for the session's owner, when {@link #checksOnCallingThread()}): completes with the
     * snapshot when this source can tell cheaply (without its store) that the facts it holds are
     * current, else empty, and the step calls {@link #load}. Should not fail; a failure counts as empty.
     * This default never knows.
     */
    default CompletableFuture<Optional<ProfileSnapshot>> current(String userId) {
        return CompletableFuture.completedFuture(Optional.empty());
    }

    /**
     * Whether {@link #current} does its check on the calling thread and returns it done. Such a check
     * cannot overlap the session read, so the step makes it after that read, for the session's actual
     * owner (and a Redis that does not answer fails the step once, not twice). This default: false.
     */
    default boolean checksOnCallingThread() {
        return false;
    }

    /**
     * A key of the session store's Redis whose value tells {@link #currentFrom} whether the facts this
     * source holds for {@code userId} are current. A step that knows the session's owner before reading
     * it (its owner seen in an earlier step, or the caller it is restricted to) reads this key in the
     * same round trip as the session, and then asks {@link #currentFrom} instead of {@link #current}.
     * Only used when {@link #checksOnCallingThread()}. This default: none.
     */
    default Optional<String> currentKey(String userId) {
        return Optional.empty();
    }

    /**
     * {@link #current}'s answer from the value the step read at {@link #currentKey} (null: the key was
     * absent): the snapshot when it shows the facts this source holds are current, else empty, and
     * the step calls {@link #load}. Should not fail; a failure counts as empty. This default never knows.
     */
    default Optional<ProfileSnapshot> currentFrom(String userId, String value) {
        return Optional.empty();
    }
}
