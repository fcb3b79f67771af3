package dev.mnemos.session;

/**
 * How the texts of a session are stored in Redis: sealed with the session owner's data key when encryption at rest is
 * on (docs/operations.md "Encryption at rest"), else as they are ({@link #CLEAR}). A place names what a value is
 * ({@code goal}, {@code c} for a constraint, {@code event}, {@code chat} …): a sealed value opens only for its user
 * and place, in whichever of the user's sessions it was copied to (a fork, a rollback, a checkpoint copy one).
 * Ids, versions, timestamps, counters, statuses and the actor stay clear, so the scripts read them as before.
 */
public interface SessionValues {

    /** Texts as they are: the session-only packaging, and stores built by hand. */
    SessionValues CLEAR = new SessionValues() {
    };

    /** Whether texts are sealed (a store then needs each value's owner to write or read it). */
    default boolean on() {
        return false;
    }

    /**
     * Whether {@code userId}'s texts seal and open without blocking: always with encryption off; with it on, once their
     * data key is in memory (else it is read, or made, in Postgres).
     */
    default boolean ready(String userId) {
        return true;
    }

    /** {@code plain} as stored; a stored one, sealed or plain, as it is when encryption is off. */
    default String seal(String userId, String place, String plain) {
        return plain;
    }

    /**
     * The text a stored value holds: a plain one (written before encryption was on) as it is.
     *
     * @throws RuntimeException (the crypt layer's {@code SealedValueException}) when a sealed one does not open
     */
    default String open(String userId, String place, String stored) {
        return stored;
    }

    /**
     * Drops what is remembered of {@code userId}'s texts (sealed values are remembered opened, and texts sealed): a text
     * of theirs was forgotten, or they were erased.
     */
    default void forget(String userId) {
    }

    /** A field name standing for {@code text} (an open question): the text itself when encryption is off. */
    default String name(String userId, String place, String text) {
        return text;
    }

    /**
     * These values as sealed and opened where nothing may block (an event loop, after {@link #ready} said they would
     * not): a text whose owner's data key has left memory since (evicted, or an erase) fails with
     * {@link NotInMemoryException} instead of the key being read in Postgres, and the caller takes its blocking path.
     */
    default SessionValues withoutBlocking() {
        return this;
    }

    /** A text met {@link #withoutBlocking} whose owner's data key is not in memory: nothing was written or read. */
    final class NotInMemoryException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public NotInMemoryException() {
            super("the data key of a session's owner is not in memory", null, false, false);
        }
    }
}
