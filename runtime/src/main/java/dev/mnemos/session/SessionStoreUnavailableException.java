package dev.mnemos.session;

import io.vertx.core.http.ConnectionPoolTooBusyException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.net.ConnectException;
import java.util.List;
import java.util.function.Supplier;

/**
 * Redis could not be reached or failed the call. {@link #outcomeUnknown()} tells whether a write
 * may have been applied: only a refused connection proves the command was never sent.
 * {@link ReplicaWaitException}: it was applied on the master, and no replica confirmed it.
 */
public class SessionStoreUnavailableException extends RuntimeException {

    /** How Redis refuses a write while {@code used_memory} exceeds {@code maxmemory} under {@code noeviction}. */
    private static final String OOM = "OOM command not allowed";

    private final boolean outcomeUnknown;
    private final boolean outOfMemory;

    public SessionStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
        this.outOfMemory = outOfMemory(cause);
        this.outcomeUnknown = !outOfMemory && !neverSent(cause);
    }

    /** A failure whose outcome the caller knows: {@code outcomeUnknown} false when the command was never sent. */
    public SessionStoreUnavailableException(String message, Throwable cause, boolean outcomeUnknown) {
        super(message, cause);
        this.outOfMemory = false;
        this.outcomeUnknown = outcomeUnknown;
    }

    /**
     * False only when Redis certainly applied nothing: the connection was refused, or Redis refused the write
     * for lack of memory ({@link #outOfMemory()}).
     */
    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }

    /**
     * Redis answered OOM: it is at {@code maxmemory} and refuses writes. Nothing was written: Redis refuses a
     * write command before running it, and a Mnemos script at its first write, before it changed anything (a
     * script that has written is never refused midway).
     */
    public boolean outOfMemory() {
        return outOfMemory;
    }

    private static boolean outOfMemory(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(OOM)) {
                return true;
            }
        }
        return false;
    }

    /**
     * How the Quarkus client's Cluster connection fails a command it could not open a connection for (the node's
     * address refused it, as a killed master's does until the Cluster names another): it sends nothing.
     */
    private static final String NO_CLUSTER_CONNECTION = "Failed obtaining connection to";

    /**
     * Errors Redis answers before it runs a command: a Cluster node that does not serve the slot, a cluster or master
     * that is down, a replica, a loading node, a master short of replicas ({@code min-replicas-to-write}).
     */
    private static final List<String> REFUSED = List.of("MOVED", "ASK", "CLUSTERDOWN", "TRYAGAIN", "READONLY",
            "MASTERDOWN", "LOADING", "NOREPLICAS");

    private static boolean neverSent(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof ConnectionPoolTooBusyException || t.getMessage() != null
                    && (t.getMessage().startsWith(NO_CLUSTER_CONNECTION) || refused(t.getMessage()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Redis refused the command unrun: its error reply, or, for a batch (a write and its {@code WAIT},
     * {@link ReplicaWait}), the error of its first command, {@code ERR [0] …}.
     */
    private static boolean refused(String message) {
        for (String error : REFUSED) {
            if (message.startsWith(error + " ") || message.startsWith("ERR [0] " + error + " ")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The Redis client's pool had no connection and its wait queue was full: the command was never sent. Said in
     * Mnemos' words, with the settings that size the pool, instead of the client's exception.
     */
    static SessionStoreUnavailableException poolTooBusy(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectionPoolTooBusyException) {
                return new SessionStoreUnavailableException("session memory is unavailable: every connection of the"
                        + " Redis client's pool is in use and its wait queue is full (quarkus.redis.max-pool-size,"
                        + " quarkus.redis.max-pool-waiting); nothing was written", cause, false);
            }
        }
        return null;
    }

    /**
     * Runs a Redis call: Redis failures become this exception, a script's error a {@link SessionScriptException};
     * Mnemos' own outcomes pass through.
     */
    public static <T> T guard(Supplier<T> call) {
        try {
            return call.get();
        } catch (SessionNotFoundException | StaleVersionException | InvalidPatchException | SessionEndedException
                | VersionGoneException | VersionNotFoundException | IllegalStateException
                | IdempotencyKeyReusedException | TooManySessionsException | SessionStoreUnavailableException
                | SessionTooLargeException | UserBytesExceededException | SessionScriptException
                | TimeoutException e) {
            throw e;
        } catch (RuntimeException e) {
            SessionStoreUnavailableException busy = poolTooBusy(e);
            if (busy != null) {
                throw busy;
            }
            throw SessionScriptException.of("Redis did not answer: " + e.getMessage(), e);
        }
    }
}
