package dev.mnemos.injection;

import java.util.Arrays;

/** Percentiles of latency samples in nanoseconds, reported in milliseconds. */
public record Percentiles(int count, double p50, double p99, double max) {

    public static Percentiles of(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return new Percentiles(sorted.length, ms(at(sorted, 0.50)), ms(at(sorted, 0.99)), ms(sorted[sorted.length - 1]));
    }

    private static long at(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    private static double ms(long nanos) {
        return nanos / 1_000_000.0;
    }

    @Override
    public String toString() {
        return String.format("p50 %.3f ms  p99 %.3f ms  max %.3f ms  (n=%d)", p50, p99, max, count);
    }
}
