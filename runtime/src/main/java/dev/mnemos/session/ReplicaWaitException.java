package dev.mnemos.session;

import java.time.Duration;

/**
 * A session write that Redis' master applied, but fewer of its replicas than
 * {@code quarkus.mnemos.session.replica-wait.replicas} confirmed within the wait ({@link ReplicaWait}): the write is in
 * the session now, and is lost if the master fails over before a replica has it. Answered 503: the session may be at
 * {@link #version()} or, after a failover, before it; re-read it before writing again, or retry with the same
 * Idempotency-Key.
 */
public class ReplicaWaitException extends SessionStoreUnavailableException {

    private final long version;
    private final long confirmed;
    private final int asked;

    /**
     * @param what what the master holds, e.g. "written on the Redis master as version 7"
     * @param version the version written, or 0 when the write is not a version
     */
    public ReplicaWaitException(String what, long version, long confirmed, int asked, Duration timeout) {
        super(what + " but confirmed by " + confirmed + " of the "
                + asked + " replica(s) asked within " + timeout.toMillis() + " ms: it may be lost if that master fails"
                + " over before a replica has it", null, true);
        this.version = version;
        this.confirmed = confirmed;
        this.asked = asked;
    }

    /** The version the master wrote; 0 when what it holds is not a version (a replayed Idempotency-Key's record). */
    public long version() {
        return version;
    }

    /** How many replicas confirmed the write in time. */
    public long confirmed() {
        return confirmed;
    }

    /** How many replicas were asked for. */
    public int asked() {
        return asked;
    }
}
