package dev.mnemos.session;

/** The version existed but is older than the retention window; {@code oldest} is the oldest still kept. */
public class VersionGoneException extends RuntimeException {

    private final long version;
    private final long oldest;

    public VersionGoneException(String sessionId, long version, long oldest) {
        super("version " + version + " of session " + sessionId + " is beyond retention; the oldest kept is " + oldest);
        this.version = version;
        this.oldest = oldest;
    }

    public long version() {
        return version;
    }

    public long oldest() {
        return oldest;
    }
}
