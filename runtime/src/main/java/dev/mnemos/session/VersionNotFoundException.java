package dev.mnemos.session;

/** The session never reached this version. */
public class VersionNotFoundException extends RuntimeException {

    private final long version;
    private final long current;

    public VersionNotFoundException(String sessionId, long version, long current) {
        super("session " + sessionId + " has versions 1 to " + current + "; " + version + " does not exist");
        this.version = version;
        this.current = current;
    }

    public long version() {
        return version;
    }

    public long current() {
        return current;
    }
}
