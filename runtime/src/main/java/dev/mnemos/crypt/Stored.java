package dev.mnemos.crypt;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;

/**
 * {@link MemoryCipher} for the entities, which are no beans: their accessors open what Hibernate loaded, and their
 * {@code @PrePersist}/{@code @PreUpdate} callbacks seal what it writes. A plain value opens without a look-up.
 */
public final class Stored {

    private record Bound(ArcContainer container, MemoryCipher cipher) {
    }

    private static volatile Bound bound;

    private Stored() {
    }

    public static String seal(String value, Place place) {
        return value == null || MemoryCipher.sealed(value) ? value : cipher().seal(value, place);
    }

    public static byte[] seal(byte[] value, Place place) {
        return value == null || MemoryCipher.sealed(value) ? value : cipher().seal(value, place);
    }

    public static String open(String stored, Place place) {
        return MemoryCipher.sealed(stored) ? cipher().open(stored, place) : stored;
    }

    public static byte[] open(byte[] stored, Place place) {
        return MemoryCipher.sealed(stored) ? cipher().open(stored, place) : stored;
    }

    /** The running application's cipher (tests start several applications in one JVM, one after the other). */
    private static MemoryCipher cipher() {
        ArcContainer container = Arc.container();
        Bound current = bound;
        if (current == null || current.container() != container) {
            current = new Bound(container, container.instance(MemoryCipher.class).get());
            bound = current;
        }
        return current.cipher();
    }
}
