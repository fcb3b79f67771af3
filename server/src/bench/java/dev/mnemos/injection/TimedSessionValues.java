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
import java.util.function.Supplier;
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
    protected String seal(String userId, String place, String plain, boolean inMemoryOnly) {
        return timed(Call.SEAL, place, plain, () -> super.seal(userId, place, plain, inMemoryOnly));
    }

    @Override
    protected String open(String userId, String place, String stored, boolean inMemoryOnly) {
        return timed(Call.OPEN, place, null, () -> super.open(userId, place, stored, inMemoryOnly));
    }

    @Override
    protected String name(String userId, String place, String text, boolean inMemoryOnly) {
        return timed(Call.NAME, place, text, () -> super.name(userId, place, text, inMemoryOnly));
    }

    /** @param plain the plain text given, or null when it is what {@code work} answers */
    private static String timed(Call call, String place, String plain, Supplier<String> work) {
        long start = System.nanoTime();
        String answer = null;
        try {
            return answer = work.get();
        } finally {
            add(call, start, place, plain != null ? plain : answer);
        }
    }
}
