package dev.mnemos.session;

/**
 * A read sent to Redis whose reply is not read yet: {@link #reply} reads it, so that what the calling thread does
 * in between overlaps the round trip. {@link #close} gives up a reply that was never read.
 *
 * @param <T> what the read answers
 */
@FunctionalInterface
public interface Sent<T> extends AutoCloseable {

    /** Waits for the reply and reads it; the failures are the blocking read's. */
    T reply();

    @Override
    default void close() {
    }
}
