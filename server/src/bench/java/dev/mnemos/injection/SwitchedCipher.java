package dev.mnemos.injection;

import dev.mnemos.crypt.DataKeys;
import dev.mnemos.crypt.MemoryCipher;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

/**
 * The benchmarks' cipher: {@link MemoryCipher} whose sealing of new values {@link EncryptionCostBenchmark} turns on
 * and off between two blocks of its work, with nothing in flight, so that the same application measures the same
 * steps sealed and in clear, one block after the other. Everything that seals (session values in Redis, rows in
 * Postgres) asks {@link MemoryCipher#on()}; values sealed earlier still open when it is off, as they do in an
 * application whose key was configured before. Enabled only by that benchmark's test profile.
 */
@Alternative
@Singleton // no client proxy: one made in this package could not pass on the package-private methods of MemoryCipher
public class SwitchedCipher extends MemoryCipher {

    private static volatile boolean sealing = true;

    public SwitchedCipher(DataKeys keys) {
        super(keys);
    }

    /** Whether new values are sealed from now on (as configured: never without a key). */
    static void sealing(boolean on) {
        sealing = on;
    }

    @Override
    public boolean on() {
        return sealing && super.on();
    }
}
