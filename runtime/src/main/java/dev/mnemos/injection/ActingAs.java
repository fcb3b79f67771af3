package dev.mnemos.injection;

import dev.mnemos.injection.step.StepThread;
import org.jboss.logging.Logger;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Names who a piece of work acts for, where Mnemos cannot read it from the request: a thread of the application's
 * own, a pool without context propagation, a {@code @Scheduled} job, a message consumer.
 * <ul>
 * <li>{@link #user(String)}: the {@link SessionMemory} steps of the work read and write only that user's sessions and
 * profile, and a first call starts a session owned by that user.</li>
 * <li>{@link #system(String)}: the work may reach every user's existing sessions. It cannot start a session (a session
 * needs an owner), and each use is logged at INFO with its reason.</li>
 * </ul>
 * A named actor holds on the calling thread for the duration of {@link #call} or {@link #run}, and takes precedence
 * over the request's identity; scopes nest. Work handed to another thread inside it does not take it along: name the
 * actor on that thread. In an application that authenticates its callers, a step that has neither a request identity
 * nor a named actor is refused with {@link ActingUserUnknownException} before anything is read.
 *
 * <pre>
 * CompletableFuture.supplyAsync(() -&gt; ActingAs.user(userId).call(() -&gt; assistant.advise(sessionId, question)));
 * </pre>
 */
public final class ActingAs {

    private static final Logger LOG = Logger.getLogger(ActingAs.class);
    private static final StepThread.Slot<ActingAs> CURRENT = StepThread.slot();

    private final String user;
    private final String reason;

    private ActingAs(String user, String reason) {
        this.user = user;
        this.reason = reason;
    }

    /**
     * @param userId the user the work acts for, as Mnemos stores owners (a JWT's subject, a principal's name)
     * @throws IllegalArgumentException when {@code userId} is null or blank
     */
    public static ActingAs user(String userId) {
        if (userId == null || userId.isBlank()) {
            throw new IllegalArgumentException("ActingAs.user needs a user id; it is null or blank");
        }
        return new ActingAs(userId, null);
    }

    /**
     * @param reason why the work may reach every user (logged at INFO each time the scope is entered)
     * @throws IllegalArgumentException when {@code reason} is null or blank
     */
    public static ActingAs system(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("ActingAs.system needs a reason; it is null or blank");
        }
        return new ActingAs(null, reason);
    }

    /** The actor named on this thread, or empty outside every {@link #call}/{@link #run}. */
    public static Optional<ActingAs> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** The user this actor acts for, or empty for the {@linkplain #system system} actor. */
    public Optional<String> userId() {
        return Optional.ofNullable(user);
    }

    /** Whether this is the {@linkplain #system system} actor, which may reach every user's sessions. */
    public boolean isSystem() {
        return user == null;
    }

    /** Runs {@code work} on this thread as this actor and returns what it returned. */
    public <T> T call(Supplier<T> work) {
        ActingAs outer = CURRENT.get();
        if (isSystem()) {
            LOG.infof("acting as the system for: %s (Mnemos steps may reach every user's sessions)", reason);
        }
        CURRENT.set(this);
        try {
            return work.get();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /** Runs {@code work} on this thread as this actor. */
    public void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
    }

    @Override
    public String toString() {
        return isSystem() ? "system (" + reason + ")" : "user " + user;
    }
}
