package dev.mnemos.app;

/** A confirm of a request the user rejected, or a reject of one they confirmed: the first decision stands. */
public class PendingRequestDecidedException extends RuntimeException {

    private final long requestId;
    private final String status;

    public PendingRequestDecidedException(long requestId, String status) {
        super("pending request " + requestId + " is " + status + " already");
        this.requestId = requestId;
        this.status = status;
    }

    public long requestId() {
        return requestId;
    }

    public String status() {
        return status;
    }
}
