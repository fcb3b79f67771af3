package dev.mnemos.injection;

/**
 * A {@link SessionMemory} step of an application that authenticates its callers ran where Mnemos cannot tell who it
 * acts for: no request identity reached its thread and no {@link ActingAs} scope names one. Nothing was read or
 * written and the model was not called.
 */
public class ActingUserUnknownException extends SecurityException {

    public ActingUserUnknownException(String what) {
        super(what + ": Mnemos cannot tell which user this call acts for. It runs outside the request that"
                + " authenticated its caller (a thread of its own, a pool without context propagation, a scheduled job),"
                + " and this application authenticates its callers. Name the user around the call with"
                + " ActingAs.user(userId).call(() -> ...), use ActingAs.system(reason) for work that may reach every"
                + " user's sessions, or hop threads with the ManagedExecutor, which carries the request's identity.");
    }
}
