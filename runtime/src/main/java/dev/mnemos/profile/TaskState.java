package dev.mnemos.profile;

/**
 * The state of a task a fact records, when it records one. A closed state (DONE, DROPPED) survives
 * every merge or replacement: a closed task never comes back as open.
 */
public enum TaskState {
    OPEN,
    DONE,
    DROPPED;

    public boolean closed() {
        return this != OPEN;
    }

    /** The state a replacement keeps: a closed {@code previous} state wins over anything new. */
    public static TaskState carry(TaskState previous, TaskState next) {
        return previous != null && previous.closed() ? previous : next;
    }
}
