package dev.mnemos.session;

import java.util.function.Function;

/**
 * A read sent to Redis whose reply has not been read yet: the caller works while Redis answers, then
 * {@link #reply()} reads it. Call {@link #reply()} once, also when that work failed: until then the read may
 * hold a connection.
 */
@FunctionalInterface
public interface Pending<T> {

    /**
     * Reads the reply, waiting for it. Fails as the read itself would: a MicroProfile {@code TimeoutException},
     * a {@link SessionStoreUnavailableException}, a {@link SessionNotFoundException}.
     */
    T reply();

    /** A read answered already. */
    static <T> Pending<T> answered(T value) {
        return () -> value;
    }

    /** This read, its reply turned by {@code then} when it is read. */
    default <R> Pending<R> then(Function<? super T, ? extends R> then) {
        return () -> then.apply(reply());
    }
}
