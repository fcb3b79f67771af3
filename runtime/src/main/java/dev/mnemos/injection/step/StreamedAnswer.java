package dev.mnemos.injection.step;

import dev.langchain4j.model.output.FinishReason;

import java.util.Optional;

/**
 * The answer of one streamed step as its tokens arrive, when the first one came, and how the provider ended it
 * ({@link StreamFinishes}). Tokens of one stream arrive one after another, possibly on different threads, and are read
 * on yet another one when the stream ends.
 */
final class StreamedAnswer {

    private final long start;
    private final StringBuilder text = new StringBuilder();
    private Long firstToken;
    private boolean requested;
    private FinishReason finish;
    private Throwable error;

    /** @param start when the model call started ({@link System#nanoTime}) */
    StreamedAnswer(long start) {
        this.start = start;
    }

    synchronized void add(String token) {
        if (firstToken == null) {
            firstToken = System.nanoTime() - start;
        }
        if (token != null) {
            text.append(token);
        }
    }

    synchronized String text() {
        return text.toString();
    }

    /** Nanoseconds from the start to the first token, or null when none came. */
    synchronized Long firstTokenNanos() {
        return firstToken;
    }

    /** The model's request was seen by {@link StreamFinishes}: its end will be too. */
    synchronized void requested() {
        requested = true;
    }

    /** The provider ended the stream with {@code reason} (null when it reported none). */
    synchronized void finished(FinishReason reason) {
        finish = reason;
    }

    /** The model call failed. */
    synchronized void failed(Throwable cause) {
        error = cause;
    }

    /**
     * Why the answer is not whole although its stream completed: the provider reported no finish reason, or the call
     * failed; empty when it is whole, or when no listener saw the call (then the stream's completion is its end).
     */
    synchronized Optional<String> incomplete() {
        if (!requested) {
            return Optional.empty();
        }
        if (error != null) {
            return Optional.of("the model call failed: " + error);
        }
        return finish == null
                ? Optional.of("the provider's stream ended without a finish reason (a malformed or cut-off stream)")
                : Optional.empty();
    }

    long sinceStart() {
        return System.nanoTime() - start;
    }
}
