package dev.mnemos.injection;

import dev.mnemos.crypt.MemoryCipher;
import dev.mnemos.crypt.SealedSessionValues;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * The benchmarks' session values: {@link SealedSessionValues} that adds up the time its seals, opens and names take,
 * by the side {@link EncryptionCostBenchmark} runs at the time, so that a step's cost of sealing is told apart from
 * what the machine does around it. Enabled only by that benchmark's test profile.
 */
@Alternative
@Singleton
public class TimedSessionValues extends SealedSessionValues {

    /** What is timed: {@link #seal}, {@link #open} and {@link #name}. */
    enum Call {
        SEAL, OPEN, NAME
    }

    /** Nanoseconds and calls by side (clear, sealed) and {@link Call}. */
    static final LongAdder[][] NANOS = adders();
    static final LongAdder[][] CALLS = adders();
    /** On the sealed side, by call and place: nanoseconds, calls and characters of the plain text. */
    static final Map<String, LongAdder[]> BY_PLACE = new ConcurrentSkipListMap<>();

    /** The side whose block runs now: 0 clear, 1 sealed. */
    static volatile int side;

    public TimedSessionValues(MemoryCipher cipher) {
        super(cipher);
    }

    static void reset() {
        for (LongAdder[][] sums : List.of(NANOS, CALLS)) {
            Arrays.stream(sums).flatMap(Arrays::stream).forEach(LongAdder::reset);
        }
        BY_PLACE.clear();
    }

    private static LongAdder[][] adders() {
        return new LongAdder[][] { Stream.generate(LongAdder::new).limit(Call.values().length).toArray(LongAdder[]::new),
                Stream.generate(LongAdder::new).limit(Call.values().length).toArray(LongAdder[]::new) };
    }

    private static void add(Call call, long start, String place, String plain) {
        long nanos = System.nanoTime() - start;
        NANOS[side][call.ordinal()].add(nanos);
        CALLS[side][call.ordinal()].increment();
        if (side == 1) {
            LongAdder[] sums = BY_PLACE.computeIfAbsent(call.name().toLowerCase() + " " + place,
                    k -> Stream.generate(LongAdder::new).limit(3).toArray(LongAdder[]::new));
            sums[0].add(nanos);
            sums[1].increment();
            sums[2].add(plain == null ? 0 : plain.length());
        }
    }

    @Override
    public String seal(String userId, String place, String plain) {
        long start = System.nanoTime();
        try {
            return super.seal(userId, place, plain);
        } finally {
            add(Call.SEAL, start, place, plain);
        }
    }

    @Override
    public String open(String userId, String place, String stored) {
        long start = System.nanoTime();
        String plain = null;
        try {
            return plain = super.open(userId, place, stored);
        } finally {
            add(Call.OPEN, start, place, plain);
        }
    }

    @Override
    public String name(String userId, String place, String text) {
        long start = System.nanoTime();
        try {
            return super.name(userId, place, text);
        } finally {
            add(Call.NAME, start, place, text);
        }
    }
}
