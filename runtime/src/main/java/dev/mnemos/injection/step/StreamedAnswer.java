package dev.mnemos.injection.step;

/**
 * The answer of one streamed step as its tokens arrive, and when the first one came. Tokens of one stream arrive one
 * after another, possibly on different threads, and are read on yet another one when the stream ends.
 */
final class StreamedAnswer {

    private final long start;
    private final StringBuilder text = new StringBuilder();
    private Long firstToken;

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

    long sinceStart() {
        return System.nanoTime() - start;
    }
}
