package dev.mnemos.session;

/**
 * The user's live sessions already hold the bytes {@link SessionConfig#maxUserBytes()} allows; nothing
 * was written.
 */
public class UserBytesExceededException extends RuntimeException {

    private final long max;

    public UserBytesExceededException(String userId, long max) {
        super("the sessions of user '" + userId + "' would hold more than the " + max
                + " bytes allowed (quarkus.mnemos.session.max-user-bytes); end or delete a session, or write less");
        this.max = max;
    }

    public long max() {
        return max;
    }
}
