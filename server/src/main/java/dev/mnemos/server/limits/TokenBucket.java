package dev.mnemos.server.limits;

/**
 * One user's allowance: {@code capacity} tokens, refilled at {@code perSecond}; a request takes one token per message.
 * Thread-safe; the clock is passed in (nanoseconds) so the arithmetic is testable.
 */
final class TokenBucket {

    private final double capacity;
    private final double perNano;
    private double tokens;
    private long last;

    TokenBucket(int capacity, int perSecond, long now) {
        this.capacity = capacity;
        this.perNano = perSecond / 1e9;
        this.tokens = capacity;
        this.last = now;
    }

    /** Takes {@code permits} tokens; returns 0 when taken, else the nanoseconds until they would be there (none taken). */
    synchronized long take(int permits, long now) {
        refill(now);
        if (tokens >= permits) {
            tokens -= permits;
            return 0;
        }
        return (long) Math.ceil((Math.min(permits, capacity) - tokens) / perNano);
    }

    /** Whether the bucket is full again: a user who has been idle that long needs no state. */
    synchronized boolean full(long now) {
        refill(now);
        return tokens >= capacity;
    }

    private void refill(long now) {
        if (now > last) {
            tokens = Math.min(capacity, tokens + (now - last) * perNano);
            last = now;
        }
    }
}
