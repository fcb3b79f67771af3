package dev.mnemos.app;

/** The user has no pending request of this id (or it is someone else's: callers answer the same 404). */
public class PendingRequestNotFoundException extends RuntimeException {

    private final long requestId;

    public PendingRequestNotFoundException(long requestId) {
        super("no pending request " + requestId);
        this.requestId = requestId;
    }

    public long requestId() {
        return requestId;
    }
}
