package dev.mnemos.session;

/**
 * The error replies of the session scripts ({@code {code, detail}}), one code per meaning across every
 * script; each script lists the codes it can answer on its {@code -- ERRORS:} header line. A script
 * that succeeds answers a version (1 or more) or its own data, never one of these codes.
 */
enum ScriptReply {

    /** The session is not at the expected version; detail: its current version. */
    STALE(-1),
    /** A patch evaluates a plan version the session does not have; detail: that version. */
    NO_SUCH_PLAN(-2),
    /** The session has ended. */
    ENDED(-3),
    /** There is no session of that id (or it belongs to another owner). */
    MISSING(-4),
    /** A create found the id taken. */
    EXISTS(-5),
    /** The idempotency key already has a record; nothing was written. */
    KEY_USED(-6),
    /** The version is older than the retention window; detail: the oldest version kept. */
    GONE(-7),
    /** The id belongs to a session that ended and was archived. */
    ARCHIVED(-8),
    /** The session needs a grant of detail more bytes from its user's budget; nothing was written. */
    NEEDS_BYTES(-9),
    /** The state would be detail bytes, over the per-session cap; nothing was written. */
    TOO_LARGE(-10),
    /** The version is not between 1 and the current version; detail: the current version. */
    NO_SUCH_VERSION(-11),
    /** Redis runs an evicting maxmemory-policy; nothing was written; detail: which ({@link RedisDurability#EVICTING}). */
    EVICTING(-12);

    private final long code;

    ScriptReply(long code) {
        this.code = code;
    }

    long code() {
        return code;
    }

    /** Whether {@code reply} (a script's integer reply) is this error. */
    boolean is(long[] reply) {
        return reply[0] == code;
    }

    /** The error {@code code} names. @throws IllegalStateException for a code no script answers */
    static ScriptReply of(long code) {
        int index = (int) -code - 1;
        if (index < 0 || index >= values().length) {
            throw new IllegalStateException("unknown session script reply " + code);
        }
        return values()[index];
    }

    /**
     * The exception this error is for a caller.
     *
     * @param sessionId the session the script ran on
     * @param asked the version the caller expected ({@link #STALE}) or asked for ({@link #GONE},
     *        {@link #NO_SUCH_VERSION})
     * @param detail the reply's second value
     * @param maxSessionBytes the per-session cap ({@link #TOO_LARGE})
     */
    RuntimeException failure(String sessionId, long asked, long detail, long maxSessionBytes) {
        return switch (this) {
            case STALE -> new StaleVersionException(sessionId, asked, detail);
            case NO_SUCH_PLAN -> new InvalidPatchException("patch.evaluatePlan.version",
                    "an existing plan version; version " + detail + " does not exist");
            case ENDED, ARCHIVED -> new SessionEndedException(sessionId);
            case MISSING -> new SessionNotFoundException(sessionId);
            case EXISTS -> new IllegalStateException("session " + sessionId + " already exists");
            case KEY_USED -> new IllegalStateException("session " + sessionId + ": the idempotency key has a record");
            case GONE -> new VersionGoneException(sessionId, asked, detail);
            case NEEDS_BYTES -> new IllegalStateException("session " + sessionId + " still needs " + detail
                    + " bytes after three grants from its user's budget (concurrent writes took them)");
            case TOO_LARGE -> new SessionTooLargeException(sessionId, detail, maxSessionBytes);
            case NO_SUCH_VERSION -> new VersionNotFoundException(sessionId, asked, detail);
            case EVICTING -> new RedisDurabilityException(RedisDurability.evictingPolicy(detail));
        };
    }
}
