package dev.mnemos.profile;

import java.util.List;

/**
 * An undo of a session's promotion was refused: a later change touched facts the session's end changed. Nothing
 * was written; undoing with force reverts what can still be reverted and leaves the later changes.
 */
public class UndoConflictException extends RuntimeException {

    private final String sessionId;
    private final List<KeptFact> conflicts;

    public UndoConflictException(String sessionId, List<KeptFact> conflicts) {
        super("later changes touched facts of session " + sessionId + "'s promotion", null, false, false);
        this.sessionId = sessionId;
        this.conflicts = List.copyOf(conflicts);
    }

    public String sessionId() {
        return sessionId;
    }

    /** Each fact at stake and the later change that touched it. */
    public List<KeptFact> conflicts() {
        return conflicts;
    }

    public List<Long> factIds() {
        return conflicts.stream().map(KeptFact::factId).toList();
    }
}
