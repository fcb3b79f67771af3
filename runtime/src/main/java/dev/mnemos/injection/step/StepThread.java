package dev.mnemos.injection.step;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The one {@link ThreadLocal} of Mnemos. LangChain4j renders a prompt template's {@code {inject:memory.…}}
 * placeholders, runs tools, reports a streamed answer's request and an agent's invocation through callbacks that get
 * no handle of the Mnemos step they belong to; what such a callback needs is found on the step's thread, in a
 * {@link Slot} of this class. Each slot is declared by the class that owns the value, with why it cannot be an
 * argument (docs/architecture.md lists them): one place to look for thread state, one array per thread, and nothing
 * left on a pooled thread once every slot of it is empty.
 */
public final class StepThread {

    /** More than Mnemos declares; a new slot past it fails at class initialisation, in every test. */
    private static final int MAX_SLOTS = 16;
    private static final AtomicInteger DECLARED = new AtomicInteger();
    private static final ThreadLocal<Object[]> VALUES = new ThreadLocal<>();

    private StepThread() {
    }

    /** A new slot, empty on every thread until set. */
    public static <T> Slot<T> slot() {
        return new Slot<>(null);
    }

    /** A new slot whose {@link Slot#get()} sets and answers {@code initial}'s value on a thread where it is empty. */
    public static <T> Slot<T> slot(Supplier<T> initial) {
        return new Slot<>(initial);
    }

    /** One value per thread, as a {@link ThreadLocal} holds it, kept in this class's one {@code ThreadLocal}. */
    public static final class Slot<T> {

        private final int index;
        private final Supplier<T> initial;

        private Slot(Supplier<T> initial) {
            this.index = DECLARED.getAndIncrement();
            if (index >= MAX_SLOTS) {
                throw new IllegalStateException("StepThread holds " + MAX_SLOTS + " slots; raise MAX_SLOTS");
            }
            this.initial = initial;
        }

        /** This thread's value; the initial one (then kept) when empty and the slot has one, else null. */
        @SuppressWarnings("unchecked")
        public T get() {
            Object[] values = VALUES.get();
            T value = values == null ? null : (T) values[index];
            if (value == null && initial != null) {
                value = initial.get();
                set(value);
            }
            return value;
        }

        /** Sets this thread's value; null empties the slot, as {@link #remove()}. */
        public void set(T value) {
            Object[] values = VALUES.get();
            if (value == null) {
                remove();
                return;
            }
            if (values == null) {
                values = new Object[MAX_SLOTS];
                VALUES.set(values);
            }
            values[index] = value;
        }

        /** Empties this thread's slot; the thread keeps nothing once every slot is empty. */
        public void remove() {
            Object[] values = VALUES.get();
            if (values == null) {
                return;
            }
            values[index] = null;
            for (Object value : values) {
                if (value != null) {
                    return;
                }
            }
            VALUES.remove();
        }
    }
}
