package dev.mnemos.crypt;

import java.util.HashMap;
import java.util.Map;

/**
 * An entity's opened values, so its accessors open each stored value once however often it is read (a reconcile
 * compares every fact with every candidate). Keyed by column; a value stored anew is opened anew.
 */
public final class OpenedValues {

    private record Opened(Object stored, Object plain) {
    }

    private final Map<String, Opened> opened = new HashMap<>(4);

    public String text(String stored, Place place) {
        if (!MemoryCipher.sealed(stored)) {
            return stored;
        }
        Opened last = opened.get(place.column());
        if (last != null && last.stored() == stored) {
            return (String) last.plain();
        }
        String plain = Stored.open(stored, place);
        opened.put(place.column(), new Opened(stored, plain));
        return plain;
    }

    public byte[] bytes(byte[] stored, Place place) {
        if (!MemoryCipher.sealed(stored)) {
            return stored;
        }
        Opened last = opened.get(place.column());
        if (last != null && last.stored() == stored) {
            return (byte[]) last.plain();
        }
        byte[] plain = Stored.open(stored, place);
        opened.put(place.column(), new Opened(stored, plain));
        return plain;
    }

    /** Seals {@code value} for {@code place}, remembering what it opens to. */
    public String seal(String value, Place place) {
        String stored = Stored.seal(value, place);
        if (stored != value) {
            opened.put(place.column(), new Opened(stored, value));
        }
        return stored;
    }

    public byte[] seal(byte[] value, Place place) {
        byte[] stored = Stored.seal(value, place);
        if (stored != value) {
            opened.put(place.column(), new Opened(stored, value));
        }
        return stored;
    }
}
