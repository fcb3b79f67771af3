package dev.mnemos.profile;

/** The user has no fact of this id (or it belongs to someone else: callers answer the same 404). */
public class FactNotFoundException extends RuntimeException {

    private final long factId;

    public FactNotFoundException(long factId) {
        super("no profile fact " + factId);
        this.factId = factId;
    }

    public long factId() {
        return factId;
    }
}
